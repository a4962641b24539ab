/** Public types of section methods, derived from the contract's `operations` (openapi-typescript output). */

import type { ParamsOption, RequestBodyOption } from "openapi-fetch";
import type { ProblemSlug } from "../generated/problems.ts";
import type { CallOptions } from "./call.ts";
import type {
  AbortedError,
  EntradaProblemError,
  InvalidArgumentError,
  NetworkError,
  OAuthError,
  TimeoutError,
  UnexpectedBodyError,
} from "./errors.ts";

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
