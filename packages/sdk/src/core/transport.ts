/**
 * The transport: a `fetch`-shaped function that adds what every call needs — bearer token, `Accept-Language`,
 * `Idempotency-Key`, retries with backoff, per-attempt timeout and overall deadline — and hands the final
 * response back. Section methods, `client.fetch` (and so `@entrada/sdk/raw`'s openapi-fetch), the token request
 * and the BI feed all run on it. The body is buffered once and every retry gets a fresh `Request` built from it.
 */

import type { Culture } from "../generated/problems.ts";
import { type Deadlines, newDeadlines } from "./deadlines.ts";
import {
  AbortedError,
  type EntradaError,
  InvalidArgumentError,
  isEntradaError,
  NetworkError,
  OAuthError,
  TimeoutError,
} from "./errors.ts";
import { idempotencyKeyProblem, isWriteMethod, newIdempotencyKey } from "./idempotency.ts";
import { checkedLocale } from "./language.ts";
import { describeFailure } from "./network-cause.ts";
import { callContext, parseSuccessJson } from "./response.ts";
import {
  DEFAULT_RETRY,
  isRetryableStatus,
  parseRetryAfter,
  type RetryOptions,
  type RetryPolicy,
  resolveRetryPolicy,
  retryDelay,
} from "./retry.ts";
import { type RetryBudget, type RetryBudgetOptions, retryBudget } from "./retry-budget.ts";

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
  /** Set once the client knows its credentials. */
  auth?: AuthProvider | undefined;
  locale?: string | undefined;
  /** Client-wide extra headers (`Authorization` excluded: credentials own it). */
  headers?: Headers | undefined;
  /** Sent as `User-Agent` outside browsers. */
  userAgent?: string | undefined;
  timeoutMs: number;
  totalTimeoutMs?: number | undefined;
  retry: RetryPolicy;
  budget: RetryBudget | undefined;
  /** The API's origin followed by `/`: bearer tokens are sent to URLs under it only. */
  origin: string;
  /** Shared timer for attempt timeouts and deadlines. */
  deadlines: Deadlines;
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
  operationId?: string | undefined;
  attempts: number;
  idempotencyKey?: string | undefined;
  /**
   * Set by the caller: reads the final response's body within the final attempt's timeout, deadline and abort
   * (a failure is that attempt's `EntradaError`); what it returns lands in `body`.
   */
  read?: ((response: Response) => Promise<unknown>) | undefined;
  body?: unknown;
  /** The final response, set before `read` runs (so a body that broke off is reported with it). */
  response?: Response | undefined;
}

const noop = () => {};

function discard(response: Response): void {
  response.body?.cancel().catch(noop);
}

/** `409` whose problem type is `idempotency-key-in-use`: the first attempt is still running on the server. */
function isKeyInUse(text: string, response: Response): boolean {
  const parsed = parseSuccessJson(text, response.headers.get("content-type"));
  return parsed.ok && /\/idempotency-key-in-use$/.test((parsed.value as { type?: string })?.type as string);
}

/** Sends requests through the pipeline; `config` is the client's (its `auth` set once the credentials are known). */
export interface Transport {
  readonly config: TransportConfig;
  /**
   * Sends `request` with retries and returns the final response, its body unread (or read by `state.read` into
   * `state.body`, under the attempt's timeout). Throws `EntradaError`s only: network, timeout,
   * aborted (`call.signal`), invalid-argument, or the token request's error. Headers: the request's own (a call's
   * `headers` included) beat the client's `locale`, which beats the client's `headers`; `call.locale` and
   * `call.idempotencyKey` beat everything, and the credentials own `Authorization`.
   */
  send(request: Request, call: CallOptions, state: CallState): Promise<Response>;
}

function transport(cfg: TransportConfig): Transport {
  return {
    config: cfg,
    async send(request, call, state) {
      const { method, headers, url } = request;
      const write = isWriteMethod(method);
      const given = call.idempotencyKey;
      let key: string | undefined;
      const info = (response?: Response, cause?: unknown) => callContext(state, method, url, response, cause);
      const invalid = (argument: string, problem: string): never => {
        throw new InvalidArgumentError(argument, problem, info());
      };

      const locale =
        checkedLocale(call.locale, (problem) => invalid("locale", problem)) ??
        (!headers.has("accept-language") && cfg.locale);
      if (locale) headers.set("accept-language", locale);
      if (cfg.headers)
        for (const [name, value] of cfg.headers) if (!headers.has(name)) headers.set(name, value);
      if (given !== undefined) headers.delete("idempotency-key");
      if (cfg.userAgent) headers.set("user-agent", cfg.userAgent);
      if (write) {
        // `null`: no key (the write is then never retried); none given: the request's own, else a new UUID.
        if (given != null) {
          const problem = idempotencyKeyProblem(given);
          if (problem) invalid("idempotencyKey", problem);
        }
        key = given === null ? undefined : (given ?? headers.get("idempotency-key") ?? newIdempotencyKey());
        if (key) headers.set("idempotency-key", key);
      }
      state.idempotencyKey = key;

      const policy = resolveRetryPolicy(cfg.retry, call.retry);
      const body = request.body && (await request.arrayBuffer());
      const timeoutMs = call.timeoutMs ?? cfg.timeoutMs;
      const totalMs = call.totalTimeoutMs ?? cfg.totalTimeoutMs;
      const deadline = totalMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + totalMs;
      const signal = call.signal;
      // A request that brings its own Authorization (the token request's Basic credentials) keeps it, and the
      // token never travels to another origin (say, an absolute link from a response pointing elsewhere).
      const auth = !headers.has("authorization") && url.startsWith(cfg.origin) ? cfg.auth : undefined;
      let retries = 0;
      let authRetried = false;
      /** The backoff before the current attempt (ms). */
      let delay: number | undefined = 0;
      const total = () => new TimeoutError("total", totalMs ?? 0, info());
      /** The wait before the next attempt, or `undefined` when the call must end (budget spent if not). */
      const backoff = (retryAfterMs: number | undefined, afterTimeout: boolean): number | undefined => {
        // Writes are retried only when the server can recognise the repeat by its key.
        if ((write && !key) || retries >= policy.maxRetries) return;
        const wait = retryDelay(++retries, policy, retryAfterMs);
        // No wait (a `Retry-After` beyond the cap) counts as past the deadline.
        if (Date.now() + (wait ?? deadline) < deadline && cfg.budget?.tryAcquire(afterTimeout) !== false)
          return wait;
      };

      for (;;) {
        state.attempts++;
        const start = Date.now() + delay;
        const remaining = deadline - start;
        if (remaining <= 0) throw total();
        if (signal?.aborted) throw new AbortedError(signal.reason, info());
        const controller = new AbortController();
        // Every abort (attempt timeout, deadline, the caller's signal) rejects `stopped`, which every wait of the
        // attempt (backoff, token, fetch, body) races against — so a fetch or token function that ignores its
        // signal cannot hold the call.
        let stop!: (reason: unknown) => void;
        const stopped = new Promise<never>((_, reject) => {
          stop = reject;
        });
        stopped.catch(noop);
        const abort = (reason: unknown) => {
          controller.abort(reason);
          stop(reason);
        };
        // The attempt's timeout runs on the client's shared timer (unref'd: in-flight sockets keep a process alive).
        // The backoff gets a timer of its own that does keep it alive — a CLI waiting to retry must not just exit.
        let wait: ReturnType<typeof setTimeout> | undefined;
        const timer = cfg.deadlines.add(start + Math.min(timeoutMs, remaining), () =>
          abort(timeoutMs <= remaining ? new TimeoutError("attempt", timeoutMs, info()) : total()),
        );
        const onAbort = () => abort(signal?.reason);
        signal?.addEventListener("abort", onAbort);
        const cleanup = () => {
          clearTimeout(wait);
          cfg.deadlines.delete(timer);
          signal?.removeEventListener("abort", onAbort);
        };
        /** The error a failure of this attempt ends in, and whether another attempt may help. */
        const classify = (error: unknown, response?: Response): [EntradaError, boolean] => {
          cleanup();
          if (signal?.aborted) return [new AbortedError(signal.reason, info(response)), false];
          const reason = controller.signal.reason;
          if (reason instanceof TimeoutError) return [reason, reason.scope === "attempt"];
          // Errors of the token request (OAuth, its own network failure) are final: it already retried.
          if (isEntradaError(error)) return [error, false];
          return [new NetworkError(`network error: ${describeFailure(error)}`, info(response, error)), true];
        };
        const read = (response: Response, reader: (response: Response) => Promise<unknown>) =>
          Promise.race([reader(response), stopped]).catch((error) => {
            throw classify(error, response)[0];
          });

        let response: Response;
        let token: string | undefined;
        try {
          if (delay)
            await Promise.race([
              new Promise((resolve) => {
                wait = setTimeout(resolve, delay);
              }),
              stopped,
            ]);
          token =
            auth &&
            (auth.peek() ??
              (await Promise.race([
                // A token function that throws (your backend refused a session) is an auth failure, not a network
                // one: final, with its error as the cause.
                auth.get().catch((error: unknown) => {
                  throw isEntradaError(error)
                    ? error
                    : new OAuthError(
                        {
                          error: "token_unavailable",
                          error_description: (error as Error)?.message ?? String(error),
                        },
                        info(undefined, error),
                      );
                }),
                stopped,
              ])));
          // A request without a body is sent as it is, again on a retry; one with a body gets a fresh request
          // with the buffered body on every attempt. Built from the URL, not from `request`: a `Request` made from
          // another one follows its signal, which costs far more than the copy.
          const attempt = body
            ? new Request(url, {
                method,
                headers,
                body,
                redirect: request.redirect,
                credentials: request.credentials,
                cache: request.cache,
                keepalive: request.keepalive,
              })
            : request;
          if (token) attempt.headers.set("authorization", `Bearer ${token}`);
          // The signal goes as init.signal, as fetch takes it.
          response = await Promise.race([cfg.fetch(attempt, { signal: controller.signal }), stopped]);
        } catch (error) {
          const [failure, retryable] = classify(error);
          delay = retryable ? backoff(undefined, failure instanceof TimeoutError) : undefined;
          if (delay === undefined) throw failure;
          continue;
        }

        const status = response.status;
        if (
          status === 401 &&
          token &&
          !authRetried &&
          // A challenge that names another error (`insufficient_scope`) is not cured by a new token.
          /invalid_token/i.test(response.headers.get("www-authenticate") ?? "invalid_token") &&
          (auth as AuthProvider).invalidate(token)
        ) {
          authRetried = true;
          cleanup();
          discard(response);
          delay = 0;
          continue;
        }

        let text: string | undefined;
        let retryable = isRetryableStatus(status);
        if (status === 409 && key) {
          text = (await read(response, (r) => r.text())) as string;
          retryable = isKeyInUse(text, response);
        }
        delay = retryable
          ? backoff(parseRetryAfter(response.headers.get("retry-after"), Date.now()), false)
          : undefined;
        if (delay !== undefined) {
          cleanup();
          if (text === undefined) discard(response);
          continue;
        }
        if (!retryable) cfg.budget?.recordSuccess();

        state.response = response;
        if (state.read) state.body = text ?? (await read(response, state.read));
        cleanup();
        // A 409 body already read (to look for `idempotency-key-in-use`) is handed back readable.
        return text === undefined
          ? response
          : new Response(text, { status, statusText: response.statusText, headers: response.headers });
      }
    },
  };
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
  const headers = options.headers;
  // `Authorization` belongs to the credentials, never to the client-wide headers.
  headers?.delete("authorization");
  return transport({
    // fetch, locale, headers, userAgent, totalTimeoutMs as given (other options ride along unused).
    ...options,
    timeoutMs: options.timeoutMs ?? 30_000,
    retry: resolveRetryPolicy(DEFAULT_RETRY, retry),
    budget: budget === false ? undefined : retryBudget(budget),
    deadlines: newDeadlines(),
    origin: `${new URL(options.baseUrl).origin}/`,
  });
}
