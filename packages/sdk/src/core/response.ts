/** Turning raw responses into data or typed errors. */

import {
  type EntradaError,
  EntradaProblemError,
  type ErrorContext,
  OAuthError,
  type ProblemDetails,
  UnexpectedBodyError,
} from "./errors.ts";
import { parseRetryAfter } from "./retry-policy.ts";
import type { CallState, ResponseMeta } from "./types.ts";

/** True for `application/json`, `application/problem+json` and every other `+json` type. */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  return /^application\/json|^[^;]*\+json\s*(;|$)/i.test(contentType ?? "");
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * The one JSON reading of a body (a 2xx's data, an error's problem details, a 409's problem type): parsed (empty:
 * `undefined`), or why it cannot be used.
 */
export function parseSuccessJson(text: string, contentType: string | null | undefined): Parsed {
  if (text === "") return { ok: true, value: undefined };
  if (!isJsonContentType(contentType)) return { ok: false, reason: "expected a JSON body" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, reason: "the body is not valid JSON" };
  }
}

/**
 * The error of a non-2xx response: problem details (RFC 9457), an OAuth error (RFC 6749 §5.2), or, for anything
 * else (HTML from a proxy, plain text, truncated JSON), an `UnexpectedResponseError` keeping the raw body.
 */
export function errorFromResponse(
  headers: Headers,
  text: string,
  details: ErrorContext & { status: number },
): EntradaError {
  const contentType = headers.get("content-type") ?? undefined;
  const parsed = parseSuccessJson(text, contentType);
  if (parsed.ok) {
    const body = parsed.value as (Partial<ProblemDetails> & { error?: unknown }) | null;
    if (typeof body?.type === "string" && typeof body.title === "string") {
      const retryAfterMs = parseRetryAfter(headers.get("retry-after"), Date.now());
      return new EntradaProblemError(body as ProblemDetails, {
        ...details,
        retryAfter: retryAfterMs && Math.ceil(retryAfterMs / 1000),
      });
    }
    if (typeof body?.error === "string") return new OAuthError(body as { error: string }, details);
  }
  return new UnexpectedBodyError(
    parsed.ok ? "neither problem details nor an OAuth error" : parsed.reason,
    text,
    contentType,
    details,
  );
}

/** What a call's final response (if any) said about it, with the call's attempts and idempotency key. */
export function responseMeta(state: CallState, response: Response | undefined): ResponseMeta {
  const get = (name: string) => response?.headers.get(name) ?? undefined;
  return {
    logId: get("x-log-id"),
    replayed: get("idempotent-replayed") === "true",
    contentLanguage: get("content-language"),
    idempotencyKey: state.idempotencyKey,
    requestId: get("x-request-id"),
    attempts: state.attempts,
    deprecation: get("deprecation"),
    sunset: get("sunset"),
  };
}

/**
 * The error context of a call: its request, its attempts, and what the final response (if one arrived) said.
 * `status` is the response's, so it is present whenever a response is passed.
 */
export function callContext(
  state: CallState,
  method: string,
  url: string,
  response?: Response,
  cause?: unknown,
): ErrorContext & { status: number } {
  return {
    ...responseMeta(state, response),
    status: response?.status as number,
    operationId: state.operationId,
    method,
    url,
    cause,
  };
}
