/**
 * Request input stages: path, query and header parameters against the operation's schemas, the Idempotency-Key
 * syntax, then the body (size, media type, UTF-8, syntax, schema).
 */
import { parseIdempotencyKey } from "./idempotency.ts";
import type { OperationRequest } from "./operation-request.ts";
import { problemResponse } from "./problem-response.ts";
import type { FieldError } from "./problems.ts";
import { parseBody } from "./request-body.ts";
import { queryRecord } from "./request-target.ts";
import type { MockResponse } from "./types.ts";
import type { Validator } from "./validation.ts";

/** A 400 naming every invalid path, query and header parameter at once; null when all are valid. */
export function invalidParameters(validator: Validator, rq: OperationRequest): MockResponse | null {
  const { op, url, culture } = rq;
  const errors: FieldError[] = [];
  if (rq.template.includes("{")) errors.push(...validator.params(op, "path", rq.params, culture));
  if (url.search !== "" || op.params.some((p) => p.in === "query" && p.required)) {
    const query = queryRecord(url.searchParams);
    errors.push(...validator.params(op, "query", query, culture));
  }
  if (validator.checks(op, "header")) errors.push(...validator.params(op, "header", rq.headers, culture));
  if (errors.length === 0) return null;
  return problemResponse("validation-error", culture, rq.logId, rq.origin, {
    instance: rq.pathname,
    errors,
    headers: rq.rateHeaders,
  });
}

/**
 * The write's idempotency key (null when none is sent or the operation is no write), or the 400 for a malformed
 * one.
 */
export function idempotencyKeyOf(rq: OperationRequest): string | null | MockResponse {
  const rawKey = rq.headers["idempotency-key"];
  if (!rq.op.write || rawKey === undefined) return null;
  const key = parseIdempotencyKey(rawKey);
  if (key !== null) return key;
  return problemResponse("validation-error", rq.culture, rq.logId, rq.origin, {
    instance: rq.pathname,
    headers: rq.rateHeaders,
    errors: [
      {
        pointer: "/header/idempotency-key",
        detail: "1–255 characters: a bare token or a quoted sf-string.",
      },
    ],
  });
}

/** Reads the request body into `rq.body`; returns the problem to answer instead, or null. */
export function readBody(
  validator: Validator,
  maxBodyBytes: number,
  rq: OperationRequest,
): MockResponse | null {
  const { op, culture, logId, origin, pathname, rateHeaders } = rq;
  const bytes = rq.request.body;
  if (bytes && bytes.length > maxBodyBytes) {
    return problemResponse("payload-too-large", culture, logId, origin, {
      instance: pathname,
      headers: rateHeaders,
    });
  }
  if (bytes && bytes.length > 0) {
    const parsed = parseBody(validator, op, rq.headers["content-type"], bytes, culture);
    if (parsed.problem) {
      return problemResponse(parsed.problem.slug, culture, logId, origin, {
        instance: pathname,
        headers: { ...rateHeaders, ...parsed.problem.headers },
        detail: parsed.problem.detail,
        errors: parsed.problem.errors,
      });
    }
    rq.body = parsed.value;
  } else if (op.body?.required) {
    return problemResponse("validation-error", culture, logId, origin, {
      instance: pathname,
      headers: rateHeaders,
      errors: [{ pointer: "/body", detail: "A request body is required." }],
    });
  }
  return null;
}
