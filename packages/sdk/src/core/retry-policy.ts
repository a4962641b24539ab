/**
 * Retry policy as pure functions: which outcomes are retried, how long to wait (exponential backoff with full
 * jitter, `Retry-After` honoured up to a cap), and whether a write may be retried at all.
 */

export interface RetryOptions {
  /** Retries after the first attempt (default 2, so at most 3 attempts). */
  maxRetries?: number;
  /** Base of the exponential backoff in ms (default 500). */
  baseDelayMs?: number;
  /** Upper bound of one backoff in ms (default 8000). */
  maxDelayMs?: number;
  /** Longest `Retry-After` honoured, in ms (default 60000); a longer one ends the retries. */
  maxRetryAfterMs?: number;
}

export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
};

export function resolveRetryPolicy(
  base: RetryPolicy,
  options: RetryOptions | false | undefined,
): RetryPolicy {
  if (options === false) return { ...base, maxRetries: 0 };
  if (!options) return base;
  // The settings given (one set to `undefined` keeps the base's).
  return {
    ...base,
    ...Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)),
  };
}

/**
 * Statuses worth another attempt: 408, 425, 429 and 5xx except 501 (not implemented) and 505 (HTTP version),
 * which no retry can fix.
 */
export function isRetryableStatus(status: number): boolean {
  if (status === 408 || status === 425 || status === 429) return true;
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

/**
 * `Retry-After` in ms: delta-seconds or an HTTP-date (RFC 9110 §10.2.3). `undefined` when absent or invalid.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // HTTP-dates name the month ("Sun, 06 Nov 1994 08:49:37 GMT"); anything else ("-5", "1.5") is invalid.
  if (!/[a-z]{3}/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/**
 * Delay before retry number `retry` (1-based): full jitter over `min(maxDelay, base · 2^(retry-1))`, but never
 * less than the server's `Retry-After`. Returns `undefined` when the server asks for longer than the cap.
 */
export function retryDelay(
  retry: number,
  policy: RetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): number | undefined {
  if (retryAfterMs !== undefined && retryAfterMs > policy.maxRetryAfterMs) return undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  const jittered = Math.floor(random() * ceiling);
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered);
}
