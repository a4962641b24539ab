import catalogue from "@entrada/openapi/catalogue.json" with { type: "json" };
import { cors } from "./cors.ts";
import { msg, pickText } from "./messages.ts";
import { rawPath, withinMount } from "./target.ts";
import type { Culture, ErrorFormat, LocalizedText, MockRequest, MockResponse } from "./types.ts";

/**
 * Localized problem+json responses (RFC 9457): the one shape every engine-made error takes. Sections that render
 * errors their own way (BI: OData JSON) get the engine's problems for their paths converted.
 */

export const PROBLEM_BASE = "https://docs.entrada.dev/problems/";

export interface ProblemSpec {
  status: number;
  title: LocalizedText;
  /** Default detail when the thrower gives none. */
  detail: LocalizedText;
}

/**
 * The problem catalogue of the contract (`@entrada/openapi/catalogue.json`, data in packages/openapi/src/catalogue):
 * status by slug; titles and default details are the messages `problem.<slug>.title` / `.detail` of each culture.
 */
export const PROBLEMS: Record<string, ProblemSpec> = Object.fromEntries(
  catalogue.problems.map((p) => [
    p.slug,
    { status: p.status, title: msg(`problem.${p.slug}.title`), detail: msg(`problem.${p.slug}.detail`) },
  ]),
);

export interface FieldError {
  pointer: string;
  detail: string;
}

/** A handler context's `problem`: throws the catalogue problem `slug` (rendered by the answering stage). */
export function raiseProblem(slug: string, detail?: string, extensions?: Record<string, unknown>): never {
  throw new ProblemError(slug, detail, extensions);
}

/** Thrown by handlers (via ctx.problem) and by the stages; turned into problem+json once, by the dispatcher. */
export class ProblemError extends Error {
  readonly slug: string;
  readonly detail: string | undefined;
  readonly extensions: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  /** Overrides the catalogue status (only for slugs not in the catalogue, e.g. a section-specific one). */
  readonly status: number | undefined;
  /** Field errors (`errors[]` of a validation problem). */
  readonly errors: FieldError[] | undefined;
  constructor(
    slug: string,
    detail?: string,
    extensions?: Record<string, unknown>,
    headers?: Record<string, string>,
    status?: number,
    errors?: FieldError[],
  ) {
    super(detail ?? slug);
    this.slug = slug;
    this.detail = detail;
    this.extensions = extensions;
    this.headers = headers;
    this.status = status;
    this.errors = errors;
  }
}

/**
 * A pipeline stage's problem: the stage throws it, and the engine's dispatch renders it once — localized in the
 * culture known at that point, with the request's path as `instance` and its rate-limit headers. Stages signal
 * problems only this way; what they return is always their value.
 */
export function stageProblem(
  slug: string,
  options: Pick<ProblemOptions, "detail" | "errors" | "headers" | "extensions" | "status"> = {},
): ProblemError {
  return new ProblemError(
    slug,
    options.detail,
    options.extensions,
    options.headers,
    options.status,
    options.errors,
  );
}

export function isProblemError(error: unknown): error is ProblemError {
  return error instanceof ProblemError;
}

export interface ProblemOptions {
  detail?: string | undefined;
  instance?: string;
  errors?: FieldError[] | undefined;
  headers?: Record<string, string> | undefined;
  extensions?: Record<string, unknown> | undefined;
  status?: number | undefined;
}

// `%` and every character outside printable ASCII and U+0080–U+FFFF: the C0 controls and DEL.
const UNPRINTABLE = /%|[^\x20-\x7e\u0080-\uffff]/g;

/**
 * A JSON Pointer with control characters (and `%`, so the encoding stays reversible) percent-encoded, e.g. a body
 * member named "a\nb" is `/body/a%0Ab`: the contract's pointers are single-line strings (DECISIONS.md).
 */
export function printablePointer(pointer: string): string {
  return pointer.replace(
    UNPRINTABLE,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
  );
}

/** Builds a localized problem+json response (RFC 9457), with CORS headers when `origin` is set. */
export function problemResponse(
  slug: string,
  culture: Culture,
  logId: string,
  origin: string | undefined,
  options: ProblemOptions = {},
): MockResponse {
  const spec = PROBLEMS[slug];
  const extensions = { ...options.extensions };
  let status = options.status ?? spec?.status;
  if (status === undefined) {
    status = typeof extensions.status === "number" ? extensions.status : 400;
  }
  delete extensions.status;
  const body: Record<string, unknown> = {
    type: `${PROBLEM_BASE}${slug}`,
    title: spec
      ? pickText(spec.title, culture)
      : slug.replace(/-/g, " ").replace(/^./, (c) => c.toUpperCase()),
    status,
    detail: options.detail ?? (spec ? pickText(spec.detail, culture) : slug),
    ...(options.instance !== undefined ? { instance: options.instance } : {}),
    logId,
    ...extensions,
  };
  if (options.errors && options.errors.length > 0)
    body.errors = options.errors.map((e) => ({ ...e, pointer: printablePointer(e.pointer) }));
  const response: MockResponse = {
    status,
    headers: {
      "content-type": "application/problem+json",
      "x-log-id": logId,
      "content-language": culture,
      vary: "Accept-Language",
      ...options.headers,
    },
    body: JSON.stringify(body),
  };
  return cors(response, origin);
}

/** The error format that owns `path` (below the base path), if any. */
export function errorFormatFor(formats: readonly ErrorFormat[], path: string): ErrorFormat | undefined {
  return formats.find((f) => path === f.pathPrefix || path.startsWith(`${f.pathPrefix}/`));
}

/**
 * The problem+json `response` re-rendered by the error format owning the request's path: same status and headers,
 * its content type and body. Unchanged when no format owns the path.
 */
export function reformatProblem(
  formats: readonly ErrorFormat[],
  mountPath: string,
  request: MockRequest,
  response: MockResponse,
): MockResponse {
  const path = withinMount(mountPath, rawPath(request.url));
  if (path === null) return response;
  const format = errorFormatFor(formats, path);
  if (!format || typeof response.body !== "string") return response;
  const rendered = format.render(JSON.parse(response.body));
  return {
    ...response,
    headers: { ...response.headers, ...rendered.headers, "content-type": rendered.contentType },
    body: JSON.stringify(rendered.body),
  };
}
