/**
 * The SDK's types, a leaf of the import graph: the transport's vocabulary (a call, its options and what it reports
 * back, a `Send` and a `Unit`) and the public types of section methods, derived from the contract's `operations`
 * (openapi-typescript output). Every other module imports from here; this one imports types only.
 */

import type { ParamsOption, RequestBodyOption } from "openapi-fetch";
import type { Culture, ProblemSlug } from "../generated/problems.ts";
import type {
  AbortedError,
  EntradaProblemError,
  ErrorContext,
  InvalidArgumentError,
  NetworkError,
  OAuthError,
  TimeoutError,
  UnexpectedBodyError,
} from "./errors.ts";
import type { RetryOptions } from "./retry-policy.ts";

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
  /** The bearer token the latest attempt carried (set by the `bearer` unit; `credentials` drops it after a `401`). */
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

/**
 * Every error a call can end in; `switch (error.kind)` narrows it. `Slug` lists the problem slugs the operation
 * documents (a section method's error names only its own).
 */
export type RequestError<Slug extends string = ProblemSlug> =
  | EntradaProblemError<Slug>
  | OAuthError
  | NetworkError
  | TimeoutError
  | AbortedError
  | InvalidArgumentError
  | UnexpectedBodyError;

/** Facts about the response every result carries. */
export interface ResponseMeta {
  /** `X-Log-Id`: quote it in support requests; a replayed write returns the original one. */
  logId: string | undefined;
  /** True when the server replayed the stored response of an earlier write with the same idempotency key. */
  replayed: boolean;
  /** `Content-Language`: the culture the textual fields are written in. */
  contentLanguage: string | undefined;
  /** The `Idempotency-Key` every attempt of this write carried. */
  idempotencyKey: string | undefined;
  /** `X-Request-Id`, when a gateway sets one. */
  requestId: string | undefined;
  /** Attempts made, retries included. */
  attempts: number;
  /**
   * `Deprecation` (RFC 9745, `@<unix seconds>`) when the operation that answered is deprecated: plan the move.
   * `deprecationNotice(result.response?.headers)` gives it as dates with the notice's link.
   */
  deprecation: string | undefined;
  /** `Sunset` (RFC 8594, an HTTP date): after it the deprecated operation may stop answering. */
  sunset: string | undefined;
}

export interface EntradaSuccess<T> {
  data: T;
  error?: undefined;
  /** The final response (its body already read into `data`: use its status and headers). */
  response: Response;
  meta: ResponseMeta;
}

export interface EntradaFailure<Slug extends string = ProblemSlug> {
  data?: undefined;
  error: RequestError<Slug>;
  /**
   * The final response (its body already read: the error keeps what matters), or `undefined` when none arrived
   * (network error, timeout, token failure).
   */
  response: Response | undefined;
  meta: ResponseMeta;
}

/** `{ data }` or `{ error }`, never both: check `error` first. */
export type EntradaResult<T, Slug extends string = ProblemSlug> = EntradaSuccess<T> | EntradaFailure<Slug>;

type OkStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206 | 207 | "2XX";
type ResponsesOf<Op> = Op extends { responses: infer R } ? R : never;
type JsonKeys<C> = Extract<keyof C, `${string}/json` | `${string}+json`>;
type TextKeys<C> = Extract<keyof C, `text/${string}` | `${string}/xml`>;
/** JSON bodies parsed; text and XML as strings; anything else a Blob; JSON-or-other (OData `$metadata`) both. */
type MediaBody<C> = [JsonKeys<C>] extends [never]
  ? [TextKeys<C>] extends [never]
    ? Blob
    : string
  : [Exclude<keyof C, JsonKeys<C>>] extends [never]
    ? C[JsonKeys<C>]
    : C[JsonKeys<C>] | string;
type BodyOf<R> = R extends { content: infer C }
  ? [C] extends [never]
    ? undefined
    : MediaBody<C>
  : undefined;

/** The parsed body of any 2xx response of an operation (a union when several are documented). */
export type SuccessData<Op> = {
  [S in keyof ResponsesOf<Op> & OkStatus]: BodyOf<ResponsesOf<Op>[S]>;
}[keyof ResponsesOf<Op> & OkStatus];

/** Options of one call: the contract's `params` and `body`, plus the client's per-call controls. */
export type OperationInit<Op> = ParamsOption<Op> & RequestBodyOption<Op> & CallOptions;

// biome-ignore lint/complexity/noBannedTypes: `{}` is the empty object here, the standard required-keys test.
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
/** The init argument is optional exactly when nothing in it is required. */
export type InitArgs<Init> = [RequiredKeys<Init>] extends [never] ? [init?: Init] : [init: Init];

/** A typed call of one operation. */
export interface OperationMethod<Init, Data, Slug extends string = ProblemSlug> {
  /** Never rejects: every failure (API, network, timeout, abort, invalid argument) comes back as `{ error }`. */
  (...args: InitArgs<Init>): Promise<EntradaResult<Data, Slug>>;
  /** Resolves to `{ data, response, meta }` or rejects with the typed error. */
  orThrow(...args: InitArgs<Init>): Promise<EntradaSuccess<Data>>;
  readonly operationId: string;
  readonly method: string;
  readonly path: string;
}

/** The method type of one operation of the contract: its init, its named result type and its problem slugs. */
export type Operation<Op, Data = SuccessData<Op>, Slug extends string = ProblemSlug> = OperationMethod<
  OperationInit<Op>,
  Data,
  Slug
>;
