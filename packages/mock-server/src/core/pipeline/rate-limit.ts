/** Fixed-window rate limiting per client (Authorization header) and session, with RateLimit-* headers. */
import { type ProblemError, stageProblem } from "../problems.ts";
import type { MockSession } from "../session.ts";
import type { Exchange, Stage } from "./exchange.ts";

export interface RateLimitConfig {
  limit: number;
  windowSeconds: number;
}

/** The rate-limit stage: counts the request per client (Authorization) and session; 429 past the limit. */
export function rateLimit(limits: RateLimitConfig | false): Stage {
  return (ex: Exchange) => {
    const session = ex.mockSession;
    const headers = countRequest(limits, session, ex.headers.authorization ?? "anonymous", ex.now);
    if (headers === null) throw rateLimited(limits as RateLimitConfig, session, ex.now);
    ex.rateHeaders = headers;
  };
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
function rateLimited(config: RateLimitConfig, session: MockSession, now: number): ProblemError {
  let reset = config.windowSeconds;
  for (const counter of session.rate.values()) {
    reset = Math.min(reset, Math.ceil((counter.windowStart + config.windowSeconds * 1000 - now) / 1000));
  }
  const seconds = String(Math.max(1, reset));
  return stageProblem("rate-limited", {
    headers: {
      "ratelimit-limit": String(config.limit),
      "ratelimit-remaining": "0",
      "ratelimit-reset": seconds,
      "retry-after": seconds,
    },
  });
}
