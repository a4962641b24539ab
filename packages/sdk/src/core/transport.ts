/**
 * The transport: every request of a client — section methods, `client.fetch` (and so `@entrada/sdk/raw`), the BI
 * feed — goes down one chain of units over one `send` (the `fetch`). Top to bottom:
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
 *
 * The token request of client credentials is a plain call on a chain of its own: the same units without 4 and 8
 * (it authenticates with HTTP Basic), so it never waits for a token itself.
 */

import { chain, newCall } from "./call.ts";
import { type RetryBudgetOptions, retryBudget } from "./retry-budget.ts";
import { DEFAULT_RETRY, type RetryOptions, resolveRetryPolicy } from "./retry-policy.ts";
import type { AuthProvider, CallOptions, CallState, FetchLike, Unit } from "./types.ts";
import { bearer } from "./units/bearer.ts";
import { clientHeaders } from "./units/client-headers.ts";
import { credentials } from "./units/credentials.ts";
import { idempotency } from "./units/idempotency.ts";
import { language } from "./units/language.ts";
import { type Middleware, middleware, type Registered } from "./units/middleware.ts";
import { retry } from "./units/retry.ts";
import { send } from "./units/send.ts";
import { timeout } from "./units/timeout.ts";

export type { AuthProvider, CallOptions, CallState, CustomLocale, FetchLike, Locale } from "./types.ts";
export type { Middleware, MiddlewareParams } from "./units/middleware.ts";

/** Validated transport settings (`transportSettings` in `config.ts`), and the client's credentials. */
export interface TransportOptions {
  baseUrl: string;
  /** Default: the global `fetch`, looked up per call. */
  fetch?: FetchLike | undefined;
  locale?: string | undefined;
  /** Client-wide extra headers (`Authorization` excluded: credentials own it). */
  headers?: Headers | undefined;
  /** Sent as `User-Agent` outside browsers. */
  userAgent?: string | undefined;
  timeoutMs?: number | undefined;
  totalTimeoutMs?: number | undefined;
  retry?: (RetryOptions & { budget?: RetryBudgetOptions | false }) | false | undefined;
  middleware?: readonly Middleware[] | undefined;
  /**
   * Makes the credentials, given the token transport (where the client-credentials cache sends its token request):
   * the source of the bearer tokens, if any.
   */
  auth?: ((tokenTransport: TokenTransport) => AuthProvider | undefined) | undefined;
}

/** Where the token request goes: the client's chain without credentials (it authenticates with HTTP Basic). */
export interface TokenTransport {
  send: Transport["send"];
}

/** Sends requests down the chain. */
export interface Transport {
  /** The credentials the transport was made with (the client's token cache, or its session token). */
  readonly auth: AuthProvider | undefined;
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

/** The transport of one client: its credentials, retry budget and middleware list. */
export function createTransport(options: TransportOptions): Transport {
  const retryOptions = options.retry;
  // One retry budget for the client (`budget: false`, or no retries: none).
  const budget =
    retryOptions === false || retryOptions?.budget === false ? undefined : retryBudget(retryOptions?.budget);
  const registered: Registered = { list: options.middleware ?? [] };
  const before = [language(options.locale), clientHeaders(options.headers, options.userAgent), idempotency()];
  const after = [
    retry(resolveRetryPolicy(DEFAULT_RETRY, retryOptions), budget),
    middleware(registered),
    timeout(options.timeoutMs ?? 30_000),
  ];

  /** Sends down a chain of `units`; the token transport's and the client's share them, so budget and middleware. */
  const sender = (units: Unit[]): Transport["send"] => {
    const sendDown = chain(units, send(options.fetch));
    // Async: a unit refusing the call throws, and the caller gets a rejection.
    return async (request, call, state) =>
      sendDown(request, newCall(request, call, state, options.totalTimeoutMs));
  };

  const tokenSend = sender([...before, ...after]);
  const auth = options.auth?.({ send: tokenSend });
  return {
    auth,
    send: auth
      ? // Bearer tokens go to the API's origin only.
        sender([...before, credentials(auth, `${new URL(options.baseUrl).origin}/`), ...after, bearer()])
      : tokenSend,
    // The list is replaced, never changed in place: a call in flight keeps the list it started its attempt with.
    use(...added) {
      registered.list = registered.list.concat(added);
    },
    eject(...removed) {
      registered.list = registered.list.filter((m) => !removed.includes(m));
    },
  };
}
