/**
 * Delivers one conversion to one endpoint, with retries: a 2xx is done; 408, 429, 5xx, network errors and timeouts
 * are retried with exponential backoff and jitter (429/503 honour `Retry-After`); any other 4xx is final — the
 * endpoint refused the payload and will refuse it again.
 */

export interface Destination {
  /** A name for logs and the store, e.g. `ga4` or `meta`. */
  name: string;
  /** Where to POST the JSON body (GA4: `…/mp/collect?measurement_id=…&api_secret=…`; Meta: `…/<pixel>/events?access_token=…`). */
  url: string;
}

export interface RetryPolicy {
  /** Attempts in all, the first included (default 3). */
  maxAttempts: number;
  /** First backoff (default 500 ms), doubled per attempt, ±50 % jitter, capped at `maxDelayMs` (default 5 s). */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Timeout of each attempt (default 10 s). */
  timeoutMs: number;
}

/**
 * Retries within one processing of an event, for a destination's brief hiccups; longer outages are the inbox's
 * (the event is retried later, with backoff, also after a restart).
 */
export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 3,
  baseDelayMs: 500,
  maxDelayMs: 5_000,
  timeoutMs: 10_000,
};

/** The longest one `forward` can take under `policy` (every attempt timing out, the longest backoffs). */
export function worstCaseMs(policy: RetryPolicy): number {
  let total = policy.maxAttempts * policy.timeoutMs;
  for (let attempt = 1; attempt < policy.maxAttempts; attempt++)
    total += Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1) * 1.5);
  return total;
}

export interface ForwardAttempt {
  status: number | null;
  error: string | null;
}

export interface ForwardResult {
  destination: string;
  ok: boolean;
  attempts: ForwardAttempt[];
  /** Why it stopped: `delivered`, `rejected` (a final 4xx) or `gave_up` (retries exhausted). */
  outcome: "delivered" | "rejected" | "gave_up";
}

export interface ForwardDeps {
  fetch?: typeof fetch;
  /** Waits between attempts (tests pass a fake). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Aborts the attempt in progress (the inbox's timeout or shutdown). */
  signal?: AbortSignal;
}

const retryable = (status: number) => status === 408 || status === 429 || status >= 500;

function retryAfterMs(header: string | null): number | undefined {
  if (header === null) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export async function forward(
  destination: Destination,
  body: unknown,
  policy: RetryPolicy = DEFAULT_RETRY,
  deps: ForwardDeps = {},
): Promise<ForwardResult> {
  const doFetch = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = deps.random ?? Math.random;
  const attempts: ForwardAttempt[] = [];
  const payload = JSON.stringify(body);
  for (let attempt = 1; ; attempt++) {
    let wait: number | undefined;
    try {
      const response = await doFetch(destination.url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: payload,
        signal: deps.signal
          ? AbortSignal.any([AbortSignal.timeout(policy.timeoutMs), deps.signal])
          : AbortSignal.timeout(policy.timeoutMs),
      });
      await response.body?.cancel();
      attempts.push({ status: response.status, error: null });
      if (response.ok) return { destination: destination.name, ok: true, attempts, outcome: "delivered" };
      if (!retryable(response.status))
        return { destination: destination.name, ok: false, attempts, outcome: "rejected" };
      wait = retryAfterMs(response.headers.get("retry-after"));
    } catch (error) {
      const name = (error as Error)?.name;
      attempts.push({
        status: null,
        error: name === "TimeoutError" ? "timeout" : String((error as Error)?.message ?? error),
      });
    }
    if (attempt >= policy.maxAttempts)
      return { destination: destination.name, ok: false, attempts, outcome: "gave_up" };
    const backoff = policy.baseDelayMs * 2 ** (attempt - 1) * (0.5 + random());
    await sleep(Math.min(policy.maxDelayMs, wait ?? backoff));
  }
}
