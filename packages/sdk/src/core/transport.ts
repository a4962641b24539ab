/**
 * The transport: every request of a client — section methods, `client.fetch` (and so `@entrada/sdk/raw`), the token
 * request, the BI feed — goes down one chain of units over one `send` (the `fetch`). Top to bottom:
 *
 * 1. `language` — `Accept-Language` from the call's or the client's culture;
 * 2. `clientHeaders` — the client-wide headers and the `User-Agent`;
 * 3. `idempotency` — one `Idempotency-Key` per write, reused by every attempt;
 * 4. `credentials` — whether the call carries a bearer token, and one repeat after a `401 invalid_token`;
 * 5. `retry` — attempts with backoff, `Retry-After`, the call's deadline and the client's retry budget;
 * 6. `middleware` — the integrators' `use(...)`, on every attempt;
 * 7. `timeout` — the attempt's timeout, the deadline and the caller's signal, the body read included;
 * 8. `bearer` — the attempt's token in `Authorization`;
 * 9. `send` — the `fetch`, with the attempt's signal.
 */

import {
  type AuthProvider,
  type CallOptions,
  type CallState,
  chain,
  type FetchLike,
  newCall,
} from "./call.ts";
import { DEFAULT_RETRY, type RetryOptions, resolveRetryPolicy } from "./retry.ts";
import { type RetryBudgetOptions, retryBudget } from "./retry-budget.ts";
import { clientHeaders } from "./units/client-headers.ts";
import { bearer, credentials } from "./units/credentials.ts";
import { idempotency } from "./units/idempotency.ts";
import { language } from "./units/language.ts";
import { type Middleware, middleware } from "./units/middleware.ts";
import { retry } from "./units/retry.ts";
import { timeout } from "./units/timeout.ts";

export type { AuthProvider, CallOptions, CallState, CustomLocale, FetchLike, Locale } from "./call.ts";
export type { Middleware, MiddlewareParams } from "./units/middleware.ts";

/** Validated transport settings (`transportSettings` in `config.ts`); the defaults are filled in here. */
export interface TransportOptions {
  baseUrl: string;
  fetch: FetchLike;
  locale?: string | undefined;
  /** Client-wide extra headers (`Authorization` excluded: credentials own it). */
  headers?: Headers | undefined;
  /** Sent as `User-Agent` outside browsers. */
  userAgent?: string | undefined;
  timeoutMs?: number | undefined;
  totalTimeoutMs?: number | undefined;
  retry?: (RetryOptions & { budget?: RetryBudgetOptions | false }) | false | undefined;
  middleware?: readonly Middleware[] | undefined;
}

/** What a client's transport keeps that changes after it is made. */
export interface TransportConfig {
  /** Set once the client knows its credentials. */
  auth?: AuthProvider | undefined;
  /** The integrators' middleware, in the order registered (replaced by `use` and `eject`). */
  middleware: readonly Middleware[];
}

/** Sends requests down the chain; `config` is the client's (its `auth` set once the credentials are known). */
export interface Transport {
  readonly config: TransportConfig;
  /**
   * Sends `request` and returns the final response, its body unread (or read by `state.read` into `state.body`,
   * within the attempt's timeout). Throws `EntradaError`s only: network, timeout, aborted (`call.signal`),
   * invalid-argument, or the token request's error.
   */
  send(request: Request, call: CallOptions, state: CallState): Promise<Response>;
  /** Adds middleware to every later attempt of every call. */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use`. */
  eject(...middleware: Middleware[]): void;
}

/** Where a client keeps its transport, so the BI feed (`biFeed({ client })`) rides on the same chain. */
export const TRANSPORT: unique symbol = Symbol.for("@entrada/sdk.transport") as never;

/** The transport of one client: its retry budget and middleware list; no credentials yet. */
export function createTransport(options: TransportOptions): Transport {
  const { retry: retryOptions, headers, fetch } = options;
  const budget = retryOptions === false ? false : retryOptions?.budget;
  // `Authorization` belongs to the credentials, never to the client-wide headers.
  headers?.delete("authorization");
  const config: TransportConfig = { middleware: options.middleware ?? [] };

  const send = chain(
    [
      language(options.locale),
      clientHeaders(headers, options.userAgent),
      idempotency(),
      // Bearer tokens go to the API's origin only.
      credentials(() => config.auth, `${new URL(options.baseUrl).origin}/`),
      retry(
        resolveRetryPolicy(DEFAULT_RETRY, retryOptions),
        budget === false ? undefined : retryBudget(budget),
      ),
      middleware(() => config.middleware),
      timeout(options.timeoutMs ?? 30_000),
      bearer(),
    ],
    (request, call) => fetch(request, { signal: call.signal }),
  );

  return {
    config,
    send(request, call, state) {
      // A unit refusing the call throws: the caller gets a rejection (not async: no extra promise per call).
      try {
        return send(request, newCall(request, call, state, call.totalTimeoutMs ?? options.totalTimeoutMs));
      } catch (error) {
        return Promise.reject(error);
      }
    },
    // The list is replaced, never changed in place: a call in flight keeps the list it started its attempt with.
    use(...added) {
      config.middleware = [...config.middleware, ...added];
    },
    eject(...removed) {
      config.middleware = config.middleware.filter((m) => !removed.includes(m));
    },
  };
}
