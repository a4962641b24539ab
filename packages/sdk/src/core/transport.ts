/**
 * The transport: a `fetch`-shaped function that adds what every call needs — bearer token, `Accept-Language`,
 * `Idempotency-Key`, retries with backoff, per-attempt timeout and overall deadline — and hands the final
 * response back. It sits below openapi-fetch (as its `fetch`), because openapi-fetch middleware cannot re-send a
 * request: the body is buffered once here and every attempt gets a fresh `Request` built from it.
 */

import type { Culture } from "../generated/problems.ts";
import { Deadlines } from "./deadlines.ts";
import {
  AbortedError,
  type EntradaError,
  type ErrorContext,
  InvalidArgumentError,
  isEntradaError,
  NetworkError,
  OAuthError,
  TimeoutError,
} from "./errors.ts";
import { idempotencyKeyProblem, isWriteMethod, resolveIdempotencyKey } from "./idempotency.ts";
import { localeProblem, normalizeLocale } from "./language.ts";
import { isJsonContentType } from "./response.ts";
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
} from "./retry.ts";
import { RetryBudget, type RetryBudgetOptions } from "./retry-budget.ts";
import { raceSignal, sleep } from "./signals.ts";

/** Where bearer tokens come from: a client-credentials cache, a static token or a token function. */
export interface AuthProvider {
  /** A token usable now without waiting, if any. */
  peek(): string | undefined;
  /** A usable token, waiting for a request if needed. */
  get(): Promise<string>;
  /** Drops a token the server rejected; true when asking again may give a different one. */
  invalidate(token: string): boolean;
}

/**
 * A `fetch`. The client passes each attempt's `AbortSignal` as `init.signal` (cheaper than building every `Request`
 * with one); implementations must honour it as `fetch` does, or timeouts cannot cancel their requests.
 */
export type FetchLike = (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;

export interface TransportConfig {
  fetch: FetchLike;
  auth: AuthProvider | undefined;
  locale: string | undefined;
  /** Client-wide extra headers (`Authorization` excluded: credentials own it). */
  headers: Headers | undefined;
  /** Sent as `User-Agent` outside browsers. */
  userAgent: string | undefined;
  timeoutMs: number;
  totalTimeoutMs: number | undefined;
  retry: RetryPolicy;
  budget: RetryBudget | undefined;
  /** The API's origin followed by `/`: bearer tokens are sent to URLs under it only. */
  origin: string;
  /** Shared timer for attempt timeouts and deadlines. */
  deadlines: Deadlines;
  now: () => number;
  random: () => number;
}

/**
 * A culture tag the SDK does not list (`de-AT`: the API falls back to `de`, then to its default). Make one with
 * `customLocale("de-AT")` (validated) — the escape hatch of the `Locale` type.
 */
export type CustomLocale = string & { readonly __customLocale: true };

/** A culture the API serves (completed by editors), or a `customLocale(...)` for any other tag. */
export type Locale = Culture | CustomLocale;

/** Per-call options understood by the transport. */
export interface CallOptions {
  /**
   * Culture for this call (`Accept-Language`), overriding the client default and any `accept-language` in
   * `headers`.
   */
  locale?: Locale | undefined;
  /**
   * Extra headers of this call. They beat the client's `headers`; the dedicated options (`locale`,
   * `idempotencyKey`) beat both, and `Authorization` is always the client's credentials'.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Idempotency key of this write (1–255 visible ASCII characters); `null` sends none (the write is then never
   * retried). Beats an `idempotency-key` in `headers`.
   */
  idempotencyKey?: string | null | undefined;
  /** Aborts the call, retries and backoff included. */
  signal?: AbortSignal | undefined;
  /** Timeout of each attempt in ms. */
  timeoutMs?: number | undefined;
  /** Deadline of the whole call, retries and backoff included, in ms. */
  totalTimeoutMs?: number | undefined;
  /** Retry settings for this call; `false` disables retries. */
  retry?: RetryOptions | false | undefined;
}

/** What the transport reports back about one call. */
export interface CallState {
  /** Set by section methods: the caller's signal is `call.signal` (the request itself carries none). */
  fromSection?: boolean | undefined;
  /** Set by the caller: the URL is known to be under the API's origin (section methods). */
  sameOrigin?: boolean | undefined;
  /** Set by the caller: `Accept-Language` and `User-Agent` are already on the request. */
  prepared?: boolean | undefined;
  /** Set by the caller: keep the final attempt's timer running until `settle()` (body read included). */
  holdTimer?: boolean | undefined;
  operationId?: string | undefined;
  attempts: number;
  idempotencyKey?: string | undefined;
  /** Raw body of a final non-2xx response (already read, so it is kept exactly). */
  errorBody?: string | undefined;
  /** The final 2xx response, once it arrived (its body may still be unread). */
  response?: Response | undefined;
  /** Clears the final attempt's timer; set when `holdTimer` was requested. */
  settle?: (() => void) | undefined;
}

/** A failed attempt: the error to report, and whether another attempt may help. */
type Failure = [error: EntradaError, retryable: boolean];

function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

function bearerRejected(response: Response): boolean {
  const challenge = response.headers.get("www-authenticate");
  return challenge === null || /invalid_token/i.test(challenge);
}

function isKeyInUse(text: string, response: Response): boolean {
  if (!isJsonContentType(response.headers.get("content-type"))) return false;
  try {
    const body = JSON.parse(text) as { type?: unknown };
    return typeof body.type === "string" && body.type.endsWith("/idempotency-key-in-use");
  } catch {
    return false;
  }
}

export class Transport {
  readonly config: TransportConfig;

  constructor(config: TransportConfig) {
    this.config = config;
  }

  /**
   * Sends `request` with retries and returns the final response. A final non-2xx response comes back with its
   * body already read into `state.errorBody` (and re-readable). Throws `NetworkError`, `TimeoutError`, the token
   * request's error, or the caller's abort reason.
   */
  async send(request: Request, call: CallOptions, state: CallState): Promise<Response> {
    const cfg = this.config;
    const method = request.method;
    const headers = request.headers;
    const write = isWriteMethod(method);

    // A caller's abort or a bad argument ends the call before anything is sent, as an `EntradaError` too.
    const info = (status?: number): ErrorContext => ({
      status,
      idempotencyKey: key,
      operationId: state.operationId,
      method,
      url: request.url,
      attempts: state.attempts,
    });
    let key: string | undefined;
    // The raw client sets language and User-Agent while building the request.
    if (!state.prepared) {
      // Precedence: client headers < client locale < call headers < call locale; the request's own headers stay.
      const extra = new Headers(cfg.headers);
      if (cfg.locale) extra.set("accept-language", cfg.locale);
      if (call.headers) for (const [name, value] of new Headers(call.headers)) extra.set(name, value);
      extra.delete("authorization");
      if (call.locale !== undefined) {
        const locale = typeof call.locale === "string" ? normalizeLocale(call.locale) : undefined;
        if (locale === undefined)
          throw new InvalidArgumentError("locale", localeProblem(call.locale), info());
        headers.set("accept-language", locale);
      }
      if (call.idempotencyKey != null) {
        headers.delete("idempotency-key");
        extra.delete("idempotency-key");
      }
      for (const [name, value] of extra) if (!headers.has(name)) headers.set(name, value);
      if (cfg.userAgent) headers.set("user-agent", cfg.userAgent);
    }
    if (write) {
      if (call.idempotencyKey === null) headers.delete("idempotency-key");
      const problem =
        typeof call.idempotencyKey === "string" ? idempotencyKeyProblem(call.idempotencyKey) : undefined;
      if (problem) throw new InvalidArgumentError("idempotencyKey", problem, info());
      key = headers.get("idempotency-key") ?? resolveIdempotencyKey(method, call.idempotencyKey);
      if (key !== undefined) headers.set("idempotency-key", key);
    }
    state.idempotencyKey = key;

    const policy = call.retry === undefined ? cfg.retry : resolveRetryPolicy(cfg.retry, call.retry);
    // Writes are retried only when the server can recognise the repeat by its key.
    const mayRetry = !write || key !== undefined;
    const body = request.body === null ? undefined : await request.arrayBuffer();
    const timeoutMs = call.timeoutMs ?? cfg.timeoutMs;
    const totalMs = call.totalTimeoutMs ?? cfg.totalTimeoutMs;
    const deadline = totalMs === undefined ? Number.POSITIVE_INFINITY : cfg.now() + totalMs;
    const callerSignal = state.fromSection ? call.signal : request.signal;
    // A request that brings its own Authorization (the token request's Basic credentials) keeps it, and the
    // token never travels to another origin (say, an absolute link from a response pointing elsewhere).
    const needsAuth =
      cfg.auth !== undefined &&
      !headers.has("authorization") &&
      (state.sameOrigin === true || request.url.startsWith(cfg.origin));
    let retries = 0;
    let authRetried = false;
    for (let attempt = 1; ; attempt++) {
      state.attempts = attempt;
      const reuse = attempt === 1 && body === undefined;
      const controller = new AbortController();
      const remaining = deadline - cfg.now();
      if (remaining <= 0) throw new TimeoutError("total", totalMs ?? 0, info());
      if (callerSignal?.aborted) throw new AbortedError(callerSignal.reason, info());
      const attemptScope = timeoutMs <= remaining;
      // Every abort goes through here, so a pending wait can be ended without listening on the signal.
      let stopWaiting: ((reason: unknown) => void) | undefined;
      const abort = (reason: unknown) => {
        controller.abort(reason);
        stopWaiting?.(reason);
      };
      const timer = cfg.deadlines.add(cfg.now() + Math.min(timeoutMs, remaining), () =>
        abort(
          attemptScope
            ? new TimeoutError("attempt", timeoutMs, info())
            : new TimeoutError("total", totalMs ?? 0, info()),
        ),
      );
      let onCallerAbort: (() => void) | undefined;
      if (callerSignal) {
        onCallerAbort = () => abort(callerSignal.reason);
        callerSignal.addEventListener("abort", onCallerAbort, { once: true });
      }
      const cleanup = () => {
        cfg.deadlines.delete(timer);
        stopWaiting = undefined;
        if (onCallerAbort) callerSignal?.removeEventListener("abort", onCallerAbort);
      };

      let response: Response;
      let token: string | undefined;
      try {
        if (needsAuth) {
          const auth = cfg.auth as AuthProvider;
          token =
            auth.peek() ??
            (await raceSignal(
              // A token function that throws (your backend refused a session) is an auth failure, not a network
              // one: final, with its error as the cause.
              auth.get().catch((error: unknown) => {
                throw isEntradaError(error)
                  ? error
                  : new OAuthError(
                      {
                        error: "token_unavailable",
                        error_description: String((error as Error)?.message ?? error),
                      },
                      { ...info(), cause: error },
                    );
              }),
              controller.signal,
            ));
        }
        const attemptRequest = reuse
          ? request
          : new Request(request.url, {
              method,
              headers,
              body: body ?? null,
              redirect: request.redirect,
              credentials: request.credentials,
              cache: request.cache,
              keepalive: request.keepalive,
            });
        if (token !== undefined) attemptRequest.headers.set("authorization", `Bearer ${token}`);
        // The signal goes as init.signal, as fetch takes it; `stopWaiting` also ends the wait for a fetch that
        // ignores it.
        const fetched = cfg.fetch(attemptRequest, { signal: controller.signal });
        response = await new Promise<Response>((resolve, reject) => {
          if (controller.signal.aborted) reject(controller.signal.reason);
          stopWaiting = reject;
          fetched.then(resolve, reject);
        });
      } catch (error) {
        cleanup();
        const [failure, retryable] = this.#classify(error, controller.signal, callerSignal, info);
        if (!retryable || !mayRetry || retries >= policy.maxRetries) throw failure;
        const delay = retryDelay(retries + 1, policy, undefined, cfg.random) ?? 0;
        if (
          cfg.now() + delay >= deadline ||
          (cfg.budget && !cfg.budget.tryAcquire(failure instanceof TimeoutError))
        )
          throw failure;
        await this.#pause(delay, callerSignal, info);
        retries++;
        continue;
      }

      const status = response.status;
      if (status === 401 && token !== undefined && !authRetried && bearerRejected(response)) {
        if ((cfg.auth as AuthProvider).invalidate(token)) {
          authRetried = true;
          cleanup();
          discard(response);
          continue;
        }
      }

      let text: string | undefined;
      let retryable = isRetryableStatus(status);
      if (status === 409 && key !== undefined) {
        text = await this.#readText(response, cleanup, controller.signal, callerSignal, info);
        // The first attempt is still running on the server: wait and ask again to get its stored response.
        retryable = isKeyInUse(text, response);
      }
      if (retryable && mayRetry && retries < policy.maxRetries) {
        const now = cfg.now();
        const delay = retryDelay(
          retries + 1,
          policy,
          parseRetryAfter(response.headers.get("retry-after"), now),
          cfg.random,
        );
        if (delay !== undefined && now + delay < deadline && (!cfg.budget || cfg.budget.tryAcquire())) {
          cleanup();
          if (text === undefined) discard(response);
          await this.#pause(delay, callerSignal, info);
          retries++;
          continue;
        }
      }
      if (!retryable) cfg.budget?.recordSuccess();

      if (!response.ok) {
        if (text === undefined)
          text = await this.#readText(response, cleanup, controller.signal, callerSignal, info);
        cleanup();
        state.errorBody = text;
        return new Response(text, { status, statusText: response.statusText, headers: response.headers });
      }
      if (state.holdTimer) state.settle = cleanup;
      else cleanup();
      state.response = response;
      return response;
    }
  }

  /** Reads an error body; a failure while reading (timeout, reset, abort) ends the call like a failed fetch. */
  async #readText(
    response: Response,
    cleanup: () => void,
    attemptSignal: AbortSignal,
    callerSignal: AbortSignal | null | undefined,
    info: (status?: number) => ErrorContext,
  ): Promise<string> {
    try {
      return await raceSignal(response.text(), attemptSignal);
    } catch (error) {
      cleanup();
      throw this.#classify(error, attemptSignal, callerSignal, () => info(response.status))[0];
    }
  }

  async #pause(ms: number, signal: AbortSignal | undefined | null, info: () => ErrorContext): Promise<void> {
    try {
      if (ms > 0) await sleep(ms, signal ?? undefined);
      else if (signal?.aborted) throw signal.reason;
    } catch (reason) {
      throw new AbortedError(reason, info());
    }
  }

  #classify(
    error: unknown,
    attemptSignal: AbortSignal,
    callerSignal: AbortSignal | null | undefined,
    info: (status?: number) => ErrorContext,
  ): Failure {
    if (
      callerSignal?.aborted &&
      (error === callerSignal.reason || attemptSignal.reason === callerSignal.reason)
    ) {
      return [new AbortedError(callerSignal.reason, info()), false];
    }
    const reason = attemptSignal.aborted ? attemptSignal.reason : undefined;
    const timeout =
      error instanceof TimeoutError ? error : reason instanceof TimeoutError ? reason : undefined;
    if (timeout) return [timeout, timeout.scope === "attempt"];
    // Errors of the token request (OAuth, its own network failure) are final: it already retried.
    if (isEntradaError(error)) return [error, false];
    const message = error instanceof Error ? error.message : String(error);
    return [new NetworkError(`network error: ${message}`, { ...info(), cause: error }), true];
  }
}

/** Where a client keeps its transport, so the BI feed (`biFeed({ client })`) rides on the same pipeline. */
export const TRANSPORT: unique symbol = Symbol.for("@entrada/sdk.transport") as never;

/** What `newTransport` needs; everything else takes the client's defaults. */
export interface TransportOptions {
  baseUrl: string;
  fetch: FetchLike;
  locale?: string | undefined;
  headers?: Headers | undefined;
  userAgent?: string | undefined;
  timeoutMs?: number | undefined;
  totalTimeoutMs?: number | undefined;
  retry?: (RetryOptions & { budget?: RetryBudgetOptions | false }) | false | undefined;
}

/** A transport with the client's defaults (retries, shared retry budget, one deadline timer); no auth yet. */
export function newTransport(options: TransportOptions): Transport {
  const retry = options.retry;
  const budget = retry === false ? false : retry?.budget;
  return new Transport({
    fetch: options.fetch,
    auth: undefined,
    locale: options.locale,
    headers: options.headers,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
    totalTimeoutMs: options.totalTimeoutMs,
    retry: resolveRetryPolicy(DEFAULT_RETRY, retry),
    budget: budget === false ? undefined : new RetryBudget(budget),
    deadlines: new Deadlines(),
    origin: `${new URL(options.baseUrl).origin}/`,
    now: Date.now,
    random: Math.random,
  });
}
