/**
 * Request input stages: path, query and header parameters against the operation's schemas, the Idempotency-Key
 * syntax, then the body (size, media type, UTF-8, syntax, schema).
 */
import type { OperationSpec } from "../document.ts";
import { parseIdempotencyKey } from "../idempotency-store.ts";
import { contentTypeOf } from "../media-type.ts";
import type { FieldError } from "../problems.ts";
import { stageProblem } from "../problems.ts";
import type { Culture } from "../types.ts";
import type { Validator } from "../validation.ts";
import type { Exchange, Stage } from "./exchange.ts";

/** What input checking needs: the document's validators and the largest body accepted. */
export interface InputServices {
  validator: Validator;
  maxBodyBytes: number;
}

/**
 * The input stage: parameters, then the Idempotency-Key, then the body (fills in `idempotencyKey` and `body`). The
 * token endpoint reads its own form by OAuth's rules; only its Idempotency-Key is checked here.
 */
export function input({ validator, maxBodyBytes }: InputServices): Stage {
  return (ex: Exchange) => {
    if (ex.route?.oauth) {
      ex.idempotencyKey = idempotencyKeyOf(ex);
      return;
    }
    invalidParameters(validator, ex);
    ex.idempotencyKey = idempotencyKeyOf(ex);
    readBody(validator, maxBodyBytes, ex);
  };
}

/** Throws a 400 naming every invalid path, query and header parameter at once (fills in `query`). */
export function invalidParameters(validator: Validator, ex: Exchange): void {
  const { op, culture } = ex;
  const errors: FieldError[] = [];
  if (ex.template.includes("{")) errors.push(...validator.params(op, "path", ex.params, culture));
  if (ex.target.search !== "" || op.params.some((p) => p.in === "query" && p.required)) {
    const query = queryRecord(ex.url.searchParams, op.commaQuery);
    ex.query = query;
    errors.push(...validator.params(op, "query", query, culture));
  }
  if (validator.checks(op, "header")) errors.push(...validator.params(op, "header", ex.headers, culture));
  if (errors.length === 0) return;
  throw stageProblem("validation-error", {
    errors,
  });
}

/**
 * The write's idempotency key (null when none is sent or the operation is no write); throws the 400 for a malformed
 * one.
 */
export function idempotencyKeyOf(ex: Exchange): string | null {
  const rawKey = ex.headers["idempotency-key"];
  if (!ex.op.write || rawKey === undefined) return null;
  const key = parseIdempotencyKey(rawKey);
  if (key !== null) return key;
  throw stageProblem("validation-error", {
    errors: [
      {
        pointer: "/header/idempotency-key",
        detail: "1–255 characters: a bare token or a quoted sf-string.",
      },
    ],
  });
}

/** Reads the request body into `ex.body`; throws the problem (size, media type, syntax, schema) instead. */
export function readBody(validator: Validator, maxBodyBytes: number, ex: Exchange): void {
  const { op, culture } = ex;
  const bytes = ex.request.body;
  // A body where the operation takes none (a GET's, RFC 9110 §9.3.1) is the declared 400 whatever its size: 413 is
  // declared only by operations with a request body.
  if (bytes && bytes.length > maxBodyBytes && op.body) {
    throw stageProblem("payload-too-large");
  }
  if (bytes && bytes.length > 0) {
    const parsed = parseBody(validator, op, ex.headers["content-type"], bytes, culture);
    if (parsed.problem) {
      throw stageProblem(parsed.problem.slug, {
        headers: { ...parsed.problem.headers },
        detail: parsed.problem.detail,
        errors: parsed.problem.errors,
      });
    }
    ex.body = parsed.value;
  } else if (op.body?.required) {
    throw stageProblem("validation-error", {
      errors: [{ pointer: "/body", detail: "A request body is required." }],
    });
  }
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A parsed body (`value`), or the problem to answer instead. */
export interface ParsedBody {
  value?: unknown;
  problem?: { slug: string; detail?: string; errors?: FieldError[]; headers?: Record<string, string> };
}

/** Parses and validates a non-empty request body against the operation's documented request body. */
export function parseBody(
  validator: Validator,
  op: OperationSpec,
  contentType: string | undefined,
  bytes: Uint8Array,
  culture: Culture,
): ParsedBody {
  if (!op.body) {
    return {
      problem: {
        slug: "malformed-request",
        detail: `${op.method} ${op.template} takes no request body.`,
        errors: [{ pointer: "/body", detail: "Send no body." }],
      },
    };
  }
  const { media, charset } = contentTypeOf(contentType);
  const isJson = media === "application/json" || media.endsWith("+json");
  if (!op.body.media.has(media) || (charset !== undefined && !/^charset="?utf-8"?$/.test(charset))) {
    const accepted = [...op.body.media.keys()];
    return {
      problem: {
        slug: "unsupported-media-type",
        detail: `Send ${accepted.join(" or ")} (UTF-8); got ${contentType ?? "no Content-Type"}.`,
        errors: [{ pointer: "/header/content-type", detail: `Expected ${accepted.join(" or ")}.` }],
        headers: { [op.method === "PATCH" ? "accept-patch" : "accept-post"]: accepted.join(", ") },
      },
    };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return {
      problem: {
        slug: "malformed-request",
        detail: "The request body is not valid UTF-8.",
        errors: [{ pointer: "/body", detail: "Not valid UTF-8." }],
      },
    };
  }
  let value: unknown;
  if (isJson) {
    try {
      value = JSON.parse(text);
    } catch (error) {
      return {
        problem: {
          slug: "malformed-request",
          detail: `The request body is not valid JSON: ${(error as Error).message}`,
          errors: [{ pointer: "/body", detail: "Not valid JSON." }],
        },
      };
    }
  } else if (media === "application/x-www-form-urlencoded") {
    const form: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(text)) {
      const existing = form[k];
      if (existing === undefined) form[k] = v;
      else if (Array.isArray(existing)) existing.push(v);
      else form[k] = [existing, v];
    }
    value = form;
  } else {
    value = text;
  }
  const errors = validator.body(op, media, value, culture);
  if (errors.length > 0) return { problem: { slug: "validation-error", errors } };
  return { value };
}

/**
 * Query parameters as a record: a repeated name becomes an array, in order. The names in `comma` (arrays sent
 * `explode: false`) are split at commas into an array (a repeated one adds its values too).
 */
export function queryRecord(
  params: URLSearchParams,
  comma: readonly string[] = [],
): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [key, value] of params) {
    const existing = query[key];
    if (comma.includes(key)) {
      const values = value.split(",");
      query[key] = existing === undefined ? values : [...existing, ...values];
      continue;
    }
    if (existing === undefined) query[key] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else query[key] = [existing, value];
  }
  return query;
}
