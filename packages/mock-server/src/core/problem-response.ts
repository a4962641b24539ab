/** Localized problem+json responses (RFC 9457): the one shape every engine-made error takes. */
import { cors } from "./cors.ts";
import { pickText } from "./culture.ts";
import { type FieldError, PROBLEM_BASE, PROBLEMS } from "./problems.ts";
import type { Culture, MockResponse } from "./types.ts";

export interface ProblemOptions {
  detail?: string | undefined;
  instance?: string;
  errors?: FieldError[] | undefined;
  headers?: Record<string, string> | undefined;
  extensions?: Record<string, unknown> | undefined;
  status?: number | undefined;
}

// Built from a string: a regex literal with control-character ranges trips the linter's noControlCharactersInRegex.
const UNPRINTABLE = /[%\u0000-\u001f\u007f]/g;

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
