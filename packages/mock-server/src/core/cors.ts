/** CORS: the headers every cross-origin answer carries, and preflight answers (Fetch standard). */
import type { MockResponse } from "./types.ts";

const EXPOSE =
  "X-Log-Id, Idempotent-Replayed, Content-Language, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, WWW-Authenticate, Location, Deprecation, Sunset, Link";
const ALLOW_HEADERS = "Authorization, Content-Type, Accept, Accept-Language, Idempotency-Key, X-Mock-Session";
const HEADER_TOKEN_LIST = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+(?:[ \t]*,[ \t]*[A-Za-z0-9!#$%&'*+.^_`|~-]+)*$/;

/** Adds the CORS response headers for `origin` (none when the request had no Origin); mutates and returns. */
export function cors(response: MockResponse, origin: string | undefined): MockResponse {
  if (origin === undefined) return response;
  response.headers["access-control-allow-origin"] = origin;
  response.headers["access-control-expose-headers"] = EXPOSE;
  response.headers.vary = response.headers.vary ? `${response.headers.vary}, Origin` : "Origin";
  return response;
}

/** Is this an OPTIONS request carrying Access-Control-Request-Method? */
export function isPreflight(method: string, headers: Record<string, string>): boolean {
  return method === "OPTIONS" && headers["access-control-request-method"] !== undefined;
}

/**
 * The 204 preflight answer: `methods` allowed on the path (the caller has already turned an unknown path into a
 * 404), the requested headers echoed when they are a valid token list, the defaults otherwise.
 */
export function preflightResponse(
  methods: string,
  origin: string | undefined,
  headers: Record<string, string>,
  logId: string,
): MockResponse {
  const requested = headers["access-control-request-headers"];
  const allowHeaders = requested && HEADER_TOKEN_LIST.test(requested) ? requested : ALLOW_HEADERS;
  const response: MockResponse = {
    status: 204,
    headers: {
      "x-log-id": logId,
      "access-control-allow-methods": methods,
      "access-control-allow-headers": allowHeaders,
      "access-control-max-age": "600",
    },
    body: null,
  };
  return cors(response, origin);
}
