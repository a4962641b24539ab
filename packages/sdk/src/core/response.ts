/** Turning raw responses into data or typed errors. */

import {
  type EntradaError,
  EntradaProblemError,
  type ErrorContext,
  OAuthError,
  type ProblemDetails,
  UnexpectedResponseError,
} from "./errors.ts";
import { parseRetryAfter } from "./retry.ts";
import type { CallState } from "./transport.ts";

/** True for `application/json`, `application/problem+json` and every other `+json` type. */
export function isJsonContentType(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  if (contentType.startsWith("application/json")) return true;
  const mediaType = (contentType.split(";")[0] as string).trim().toLowerCase();
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

function tryParseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isProblemBody(value: unknown): value is ProblemDetails {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.type === "string" && typeof v.title === "string";
}

function isOAuthBody(
  value: unknown,
): value is { error: string; error_description?: string; error_uri?: string } {
  return (
    typeof value === "object" && value !== null && typeof (value as { error?: unknown }).error === "string"
  );
}

/**
 * The error of a non-2xx response: problem details (RFC 9457), an OAuth error (RFC 6749 §5.2), or, for anything
 * else (HTML from a proxy, plain text, truncated JSON), an `UnexpectedResponseError` keeping the raw body.
 */
export function errorFromResponse(
  status: number,
  headers: Headers,
  text: string,
  info: ErrorContext,
  now: number = Date.now(),
): EntradaError {
  const contentType = headers.get("content-type") ?? undefined;
  const details = { ...info, status };
  let reason = "expected problem details";
  if (isJsonContentType(contentType)) {
    const parsed = tryParseJson(text);
    reason = "the body is not valid JSON";
    if (parsed.ok) {
      if (isProblemBody(parsed.value)) {
        const retryAfterMs = parseRetryAfter(headers.get("retry-after"), now);
        return new EntradaProblemError(parsed.value, {
          ...details,
          retryAfter: retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000),
        });
      }
      if (isOAuthBody(parsed.value)) return new OAuthError(parsed.value, details);
      reason = "the JSON body is neither problem details nor an OAuth error";
    }
  }
  return new UnexpectedResponseError(reason, text, contentType, details);
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
  const header = (name: string) => response?.headers.get(name) ?? undefined;
  return {
    status: response?.status as number,
    logId: header("x-log-id"),
    requestId: header("x-request-id"),
    idempotencyKey: state.idempotencyKey,
    operationId: state.operationId,
    method,
    url,
    attempts: state.attempts,
    cause,
  };
}

/** Parses a 2xx JSON body, or explains why it cannot be used. */
export function parseSuccessJson(
  text: string,
  contentType: string | null,
): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (text === "") return { ok: true, value: undefined };
  if (!isJsonContentType(contentType)) return { ok: false, reason: "expected a JSON body" };
  const parsed = tryParseJson(text);
  return parsed.ok ? parsed : { ok: false, reason: "the body is not valid JSON" };
}
