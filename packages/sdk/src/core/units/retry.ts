/**
 * Retries: every attempt of a call goes down the chain from here. Another attempt follows a network error, an
 * attempt's timeout, a retryable status (408, 425, 429, 5xx but 501/505) or a `409 idempotency-key-in-use` (the
 * first attempt still runs on the server) — for reads always, for writes only with an idempotency key — after a
 * backoff with full jitter that honours `Retry-After`, while the policy's `maxRetries`, the call's deadline and the
 * client's shared retry budget allow. The body is buffered once; each attempt gets a fresh request with it.
 */

import { TimeoutError } from "../errors.ts";
import { isWriteMethod } from "../idempotency-key.ts";
import { parseSuccessJson } from "../response.ts";
import type { RetryBudget } from "../retry-budget.ts";
import {
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
} from "../retry-policy.ts";
import type { Call, Unit } from "../types.ts";
import { discard } from "./body.ts";
import { isRetryableFailure } from "./timeout.ts";

export function retry(clientPolicy: RetryPolicy, budget: RetryBudget | undefined): Unit {
  return (next) => async (request, call) => {
    const policy = resolveRetryPolicy(clientPolicy, call.options.retry);
    // Writes are retried only when the server can recognise the repeat by its key.
    const repeatable = !isWriteMethod(request.method) || call.state.idempotencyKey !== undefined;
    // Buffered once per call: each attempt, and the credentials' repeat after a rejected token, sends a copy.
    call.body ??= request.body && (await request.arrayBuffer());
    const body = call.body;
    let retries = 0;
    /** The wait before the next attempt, or `undefined` when the call ends here (budget spent if not). */
    const backoff = (retryAfterMs: number | undefined, afterTimeout: boolean): number | undefined => {
      if (!repeatable || retries >= policy.maxRetries) return;
      const wait = retryDelay(++retries, policy, retryAfterMs);
      // No wait (a `Retry-After` beyond the cap) counts as past the deadline.
      if (Date.now() + (wait ?? call.deadline) < call.deadline && budget?.tryAcquire(afterTimeout) !== false)
        return wait;
    };

    for (;;) {
      call.state.attempts++;
      call.state.response = undefined;
      let wait: number | undefined;
      try {
        const response = await next(body ? copy(request, body) : request, call);
        const again =
          isRetryableStatus(response.status) ||
          (response.status === 409 && (await isKeyInUse(response, call)));
        wait = again
          ? backoff(parseRetryAfter(response.headers.get("retry-after"), Date.now()), false)
          : undefined;
        if (wait === undefined) {
          if (!again) budget?.recordSuccess();
          return response;
        }
        discard(response);
      } catch (error) {
        wait = isRetryableFailure(error) ? backoff(undefined, error instanceof TimeoutError) : undefined;
        if (wait === undefined) throw error;
      }
      if (wait) await pause(wait, call.options.signal);
    }
  };
}

/**
 * A fresh request with the buffered body: everything else of `request` (method, headers, mode, credentials, …) kept.
 * `signal: null`: the copy does not follow `request`'s signal, which would cost a listener per attempt (the attempt's
 * own signal goes to `fetch`).
 */
function copy(request: Request, body: ArrayBuffer): Request {
  return new Request(request, { body, signal: null });
}

/** A `409` to a write with a key, whose problem type is `idempotency-key-in-use`. */
async function isKeyInUse(response: Response, call: Call): Promise<boolean> {
  if (call.state.idempotencyKey === undefined) return false;
  // Read by the timeout unit when the caller reads bodies; else read from a copy, leaving the body to the caller.
  const text = typeof call.state.body === "string" ? call.state.body : await response.clone().text();
  const parsed = parseSuccessJson(text, response.headers.get("content-type"));
  return parsed.ok && /\/idempotency-key-in-use$/.test((parsed.value as { type?: string })?.type as string);
}

/** The backoff: `ms`, or until the caller's signal aborts (the next attempt then ends as aborted). Keeps a process alive. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done);
  });
}
