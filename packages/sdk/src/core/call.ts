/**
 * The vocabulary of the transport: a call (its options and what it reports back), a `Send` (one request in, its
 * response out) and a `Unit` (a `Send` wrapped around the next one). Every stage of the transport is a unit; the
 * chain is composed in `transport.ts`.
 */

import type { Culture } from "../generated/problems.ts";
import type { ErrorContext } from "./errors.ts";
import { callContext } from "./response.ts";
import type { RetryOptions } from "./retry.ts";

/**
 * A `fetch`. The client passes each attempt's `AbortSignal` as `init.signal` (cheaper than building every `Request`
 * with one); implementations must honour it as `fetch` does, or timeouts cannot cancel their requests.
 */
export type FetchLike = (request: Request, init?: { signal?: AbortSignal }) => Promise<Response>;

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
  /** The operation's path template (`/shop/v1/discovery/events/{eventId}`), for section methods. */
  pathTemplate?: string | undefined;
  attempts: number;
  idempotencyKey?: string | undefined;
  /**
   * Set by the caller: reads a response's body within its attempt's timeout, deadline and abort (a failure is that
   * attempt's `EntradaError`); what it returns lands in `body`.
   */
  read?: ((response: Response) => Promise<unknown>) | undefined;
  body?: unknown;
  /** The latest response, set before `read` runs (so a body that broke off is reported with it). */
  response?: Response | undefined;
  /** The bearer token the latest attempt carried (set by the `bearer` unit; `renewal` drops it after a `401`). */
  token?: string | undefined;
}

/** One call as it travels down the chain. */
export interface Call {
  readonly options: CallOptions;
  readonly state: CallState;
  /** The call's `totalTimeoutMs` (its own, else the client's), if any. */
  readonly totalTimeoutMs: number | undefined;
  /** Epoch ms by which the whole call must end (`Infinity` without `totalTimeoutMs`). */
  readonly deadline: number;
  /** The request body, buffered once by the `retry` unit (`null`: none). */
  body?: ArrayBuffer | null | undefined;
  /** Where this call's bearer tokens come from (set by the `credentials` unit; none: no bearer token). */
  auth?: AuthProvider | undefined;
  /** The current attempt's `AbortSignal` (set by the `timeout` unit, handed to `fetch` by `send`). */
  signal?: AbortSignal | undefined;
  /** The error context of this call, with the response (if any) and cause. */
  info(response?: Response, cause?: unknown): ErrorContext & { status: number };
}

/**
 * Sends one request of a call and resolves to its response; fails with `EntradaError`s only (a unit refusing a call
 * may throw before it returns: `transport.send` makes that a rejection).
 */
export type Send = (request: Request, call: Call) => Promise<Response>;

/** One stage of the transport: wraps the next `Send`. */
export type Unit = (next: Send) => Send;

/** A new call of `request`, its deadline counted from now. */
export function newCall(request: Request, options: CallOptions, state: CallState, totalMs?: number): Call {
  return {
    options,
    state,
    totalTimeoutMs: totalMs,
    deadline: totalMs === undefined ? Infinity : Date.now() + totalMs,
    info: (response, cause) => callContext(state, request.method, request.url, response, cause),
  };
}

/** `units` around `send`, the first one outermost: `chain([a, b], send)` is `a(b(send))`. */
export function chain(units: readonly Unit[], send: Send): Send {
  return units.reduceRight((next, unit) => unit(next), send);
}
