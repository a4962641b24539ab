/**
 * One attempt under its limits: the attempt's timeout, the call's deadline and the caller's `signal`. Each of them
 * aborts the attempt's `AbortSignal` (`call.signal`, which `send` hands to `fetch`) and ends every wait below —
 * token, fetch, and the body read by `call.state.read` — so a `fetch` or token function that ignores its signal
 * cannot hold the call. Failures leave as `EntradaError`s: aborted, timeout, network (anything `fetch` throws), or
 * the error of the token request; `isRetryableFailure` tells the ones another attempt may cure.
 */

import { AbortedError, type EntradaError, isEntradaError, NetworkError, TimeoutError } from "../errors.ts";
import { describeFailure } from "../network-cause.ts";
import type { Call, Unit } from "../types.ts";

const retryable = new WeakSet<EntradaError>();

/** True for a network error or an attempt's timeout: failures of the attempt itself, worth another one. */
export function isRetryableFailure(error: unknown): boolean {
  return retryable.has(error as EntradaError);
}

export function timeout(clientTimeoutMs: number): Unit {
  return (next) => (request, call) => {
    const { signal } = call.options;
    const { state } = call;
    const timeoutMs = call.options.timeoutMs ?? clientTimeoutMs;
    const remaining = call.deadline - Date.now();
    if (remaining <= 0) throw totalTimeout(call);
    if (signal?.aborted) throw new AbortedError(signal.reason, call.info());

    const controller = new AbortController();
    call.signal = controller.signal;

    return new Promise<Response>((resolve, reject) => {
      let response: Response | undefined;
      let ended = false;
      /** Ends the attempt, once: its timer and listener released. A late answer (after an abort) changes nothing. */
      const end = (): boolean => {
        if (ended) return false;
        ended = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        // (A response that came, even if its body broke off, is the attempt's: errors and the result report it.)
        if (response) state.response = response;
        return true;
      };
      const succeed = (body: unknown) => {
        if (!end()) return;
        state.body = body;
        resolve(response as Response);
      };
      const fail = (error: unknown) => {
        if (end()) reject(failure(call, controller, error, response));
      };
      const abort = (reason: unknown) => {
        controller.abort(reason);
        fail(reason);
      };
      // One timer per attempt, cleared when it ends: nothing is left behind by a call. (Timers hold at most 2³¹−1 ms,
      // 24.8 days: a longer delay would fire at once.)
      const timer = setTimeout(
        () =>
          abort(
            timeoutMs <= remaining ? new TimeoutError("attempt", timeoutMs, call.info()) : totalTimeout(call),
          ),
        Math.min(timeoutMs, remaining, 2 ** 31 - 1),
      );
      const onAbort = () => abort(signal?.reason);
      signal?.addEventListener("abort", onAbort);

      // The response, then its body when the caller reads bodies — unless an abort ends the attempt first, which it
      // does even when a `fetch` or a body ignores the signal.
      try {
        next(request, call)
          .then((received) => {
            response = received;
            // (Chained here, not returned: a promise returned from a callback costs two more turns.)
            Promise.resolve(state.read?.(received)).then(succeed, fail);
          })
          .catch(fail);
      } catch (error) {
        fail(error);
      }
    });
  };
}

const totalTimeout = (call: Call) => new TimeoutError("total", call.totalTimeoutMs ?? 0, call.info());

/**
 * The `EntradaError` an attempt ends with. (Here rather than inside the attempt, as this and the total timeout were:
 * a function declared per attempt is a closure, and a context for what it uses, allocated for every call.)
 */
function failure(
  call: Call,
  controller: AbortController,
  error: unknown,
  response: Response | undefined,
): EntradaError {
  const { signal } = call.options;
  if (signal?.aborted) return new AbortedError(signal.reason, call.info(response));
  const reason = controller.signal.reason;
  if (reason instanceof TimeoutError) {
    if (reason.scope === "attempt") retryable.add(reason);
    return reason;
  }
  // Errors of the token request (OAuth, its own network failure) are final: it already retried.
  if (isEntradaError(error)) return error;
  const network = new NetworkError(`network error: ${describeFailure(error)}`, call.info(response, error));
  retryable.add(network);
  return network;
}
