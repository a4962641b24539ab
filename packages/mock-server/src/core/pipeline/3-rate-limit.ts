/** Fixed-window rate limiting per client (Authorization header) and session, with RateLimit-* headers. */
import { problemResponse } from "../problems.ts";
import type { MockSession } from "../session.ts";
import type { Culture, MockResponse } from "../types.ts";

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
}

/**
 * Counts one request for `key`. Returns the RateLimit-* headers to send, `{}` when limiting is off, or null when
 * the limit is exceeded.
 */
export function countRequest(
  config: RateLimitConfig | false,
  session: MockSession,
  key: string,
  now: number,
): Record<string, string> | null {
  if (!config) return {};
  const windowMs = config.windowSeconds * 1000;
  let counter = session.rate.get(key);
  if (!counter || now - counter.windowStart >= windowMs || now < counter.windowStart) {
    counter = { windowStart: now, count: 0 };
    if (session.rate.size > 10_000) session.rate.clear();
    session.rate.set(key, counter);
  }
  counter.count++;
  const reset = String(Math.max(0, Math.ceil((counter.windowStart + windowMs - now) / 1000)));
  if (counter.count > config.limit) return null;
  return {
    "ratelimit-limit": String(config.limit),
    "ratelimit-remaining": String(config.limit - counter.count),
    "ratelimit-reset": reset,
  };
}

/** The 429 for an exceeded limit; Retry-After is the earliest window reset of the session (at least 1 s). */
export function rateLimitedResponse(
  config: RateLimitConfig,
  session: MockSession,
  culture: Culture,
  logId: string,
  origin: string | undefined,
  pathname: string,
  now: number,
): MockResponse {
  let reset = config.windowSeconds;
  for (const counter of session.rate.values()) {
    reset = Math.min(reset, Math.ceil((counter.windowStart + config.windowSeconds * 1000 - now) / 1000));
  }
  const seconds = String(Math.max(1, reset));
  return problemResponse("rate-limited", culture, logId, origin, {
    instance: pathname,
    headers: {
      "ratelimit-limit": String(config.limit),
      "ratelimit-remaining": "0",
      "ratelimit-reset": seconds,
      "retry-after": seconds,
    },
  });
}
