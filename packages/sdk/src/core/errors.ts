/**
 * One error model for every entry point (typed client, token, BI feed, CLI, the widget's transport): each failure
 * is an `EntradaError` with a `kind`. Programs switch on `kind`, and for problem details on `slug` (the last
 * segment of the RFC 9457 `type` URI), never on the text. `message` is English and names the request:
 * `POST /shop/v1/cart/crt_1/checkout → 402 payment-declined: <server detail>`.
 *
 * Errors carry a `Symbol.for` brand and `instanceof` checks the brand, so an error made by the CommonJS build is
 * recognised by the ESM build (and by another copy of the SDK in the same process) and vice versa.
 */

import type { ProblemSlug } from "../generated/problems.ts";

export type { ProblemSlug } from "../generated/problems.ts";

/** RFC 6749 §5.2 error codes of the token endpoint. */
export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope";

/** One invalid input of a `validation-error`, located by a JSON Pointer into the request. */
export interface ProblemFieldError {
  pointer: string;
  detail: string;
}

/** An RFC 9457 problem details body as the API sends it. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  logId?: string;
  errors?: ProblemFieldError[];
  [extension: string]: unknown;
}

/** Where a failed request came from; attached to every `EntradaError`. */
export interface ErrorContext {
  /** HTTP status of the final response, or `undefined` when no response arrived. */
  status?: number | undefined;
  /** `X-Log-Id` of the final response (for support requests). */
  logId?: string | undefined;
  /** The `Idempotency-Key` sent with every attempt of this call (writes only). */
  idempotencyKey?: string | undefined;
  /** `X-Request-Id` of the final response, when a gateway sets one. */
  requestId?: string | undefined;
  /** `Content-Language` of the final response: the culture of a problem's `title` and `detail`. */
  contentLanguage?: string | undefined;
  /** True when the server replayed the stored response of an earlier write with the same idempotency key. */
  replayed?: boolean | undefined;
  /** The operation id from the contract, for calls made through a section method. */
  operationId?: string | undefined;
  method?: string | undefined;
  url?: string | undefined;
  /** Attempts made, retries included. */
  attempts?: number | undefined;
  /** `Deprecation` of the final response: the operation is deprecated (see `ResponseMeta`). */
  deprecation?: string | undefined;
  /** `Sunset` of the final response: when the deprecated operation may stop answering. */
  sunset?: string | undefined;
  cause?: unknown;
}

export type EntradaErrorKind =
  | "problem"
  | "oauth"
  | "network"
  | "timeout"
  | "aborted"
  | "invalid-argument"
  | "unexpected-body"
  | "odata";

const BRAND = Symbol.for("@entrada/sdk.error");

/** `POST /shop/v1/cart/crt_1/checkout → ` (empty when the request is unknown). */
function prefix({ method = "", url = "" }: ErrorContext): string {
  let path = url;
  try {
    path = new URL(url).pathname;
  } catch {}
  return method || url ? `${method} ${path} → `.trimStart() : "";
}

/** True when `value` is an `EntradaError` from any build or copy of the SDK. */
export function isEntradaError(value: unknown): value is EntradaError {
  return (value as Record<symbol, unknown> | undefined)?.[BRAND] === true;
}

/** Base class of every error the SDK reports. */
export abstract class EntradaError extends Error {
  /** The kind a subclass stands for (`instanceof` compares it, so the check works across builds). */
  declare static readonly kind: EntradaErrorKind | undefined;

  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof` (a subclass too): the kind it stands for.
    // biome-ignore lint/complexity/noThisInStatic: the subclass's own static `kind` is meant, not the base's.
    const kind = this.kind;
    return isEntradaError(value) && (!kind || value.kind === kind);
  }

  /** What went wrong; set from the class's static `kind`, so subclasses only declare it. */
  declare readonly kind: EntradaErrorKind;
  declare readonly status: number | undefined;
  declare readonly logId: string | undefined;
  declare readonly idempotencyKey: string | undefined;
  declare readonly requestId: string | undefined;
  declare readonly contentLanguage: string | undefined;
  declare readonly replayed: boolean | undefined;
  declare readonly operationId: string | undefined;
  declare readonly method: string | undefined;
  declare readonly url: string | undefined;
  declare readonly attempts: number | undefined;
  declare readonly deprecation: string | undefined;
  declare readonly sunset: string | undefined;

  /**
   * `message` is prefixed with `METHOD /path → ` when the request is known. The context's fields (status, logId,
   * ..., attempts), and the fields a subclass adds to it (hence the casts), become the error's.
   */
  constructor(message: string, { cause, ...fields }: ErrorContext = {}) {
    super(prefix(fields) + message, cause === undefined ? undefined : { cause });
    Object.defineProperty(this, BRAND, { value: true });
    Object.assign(this, fields);
    this.kind = (new.target as unknown as { kind: EntradaErrorKind }).kind;
  }
}

/** The API answered with `application/problem+json` (RFC 9457). */
export class EntradaProblemError<S extends string = ProblemSlug | (string & {})> extends EntradaError {
  static override readonly kind = "problem";
  declare readonly kind: "problem";
  override readonly name: string = "EntradaProblemError";
  declare readonly status: number;
  /** The full problem type URI. */
  declare readonly type: string;
  /** Last segment of `type`: what programs switch on (a catalogue slug, or a newer one this SDK predates). */
  declare readonly slug: S;
  /** The server's title, in the response's culture (`Content-Language`). */
  declare readonly title: string;
  /** The server's explanation, in the response's culture. */
  declare readonly detail: string | undefined;
  declare readonly instance: string | undefined;
  /** Invalid inputs of a `validation-error` (empty otherwise). */
  declare readonly errors: readonly ProblemFieldError[];
  /** The parsed body, extensions included. */
  declare readonly problem: ProblemDetails;
  /** Seconds from `Retry-After`, when present (429, 503). */
  declare readonly retryAfter: number | undefined;

  constructor(
    problem: ProblemDetails,
    info: ErrorContext & { status: number; retryAfter?: number | undefined },
  ) {
    const { type, title, detail, instance, errors } = problem;
    const slug = problemSlug(type);
    super(`${info.status} ${slug}: ${detail ?? title}`, {
      ...info,
      logId: info.logId ?? problem.logId,
      type,
      slug,
      title,
      detail,
      instance,
      errors: Array.isArray(errors) ? errors : [],
      problem,
    } as ErrorContext);
  }

  /** Narrow to one slug: `if (error.is("sold-out")) ...`. */
  is<T extends S>(slug: T): this is EntradaProblemError<T> {
    return this.slug === slug;
  }
}

/** The token endpoint refused the credentials or the request (RFC 6749 §5.2). */
export class OAuthError extends EntradaError {
  static override readonly kind = "oauth";
  declare readonly kind: "oauth";
  override readonly name: string = "OAuthError";
  /** The RFC 6749 error code, e.g. `invalid_client`. */
  declare readonly error: OAuthErrorCode | (string & {});
  declare readonly errorDescription: string | undefined;
  declare readonly errorUri: string | undefined;

  constructor(
    body: { error: string; error_description?: string | undefined; error_uri?: string | undefined },
    info: ErrorContext = {},
  ) {
    const { error, error_description: errorDescription, error_uri: errorUri } = body;
    super(`${info.status ?? ""} ${error}${errorDescription ? `: ${errorDescription}` : ""}`.trim(), {
      ...info,
      error,
      errorDescription,
      errorUri,
    } as ErrorContext);
  }
}

/** No response arrived: DNS, connection refused or reset, TLS, CORS, offline. */
export class NetworkError extends EntradaError {
  static override readonly kind = "network";
  declare readonly kind: "network";
  override readonly name: string = "NetworkError";
}

/** An attempt or the whole call ran out of time. */
export class TimeoutError extends EntradaError {
  static override readonly kind = "timeout";
  declare readonly kind: "timeout";
  override readonly name: string = "TimeoutError";
  /** `attempt`: one try exceeded `timeoutMs`; `total`: the call exceeded `totalTimeoutMs`. */
  declare readonly scope: "attempt" | "total";
  declare readonly timeoutMs: number;
  constructor(scope: "attempt" | "total", timeoutMs: number, info: ErrorContext = {}) {
    super(`timed out (${scope} timeout of ${timeoutMs} ms)`, { ...info, scope, timeoutMs } as ErrorContext);
  }
}

/** The caller aborted the call (its `AbortSignal`); `cause` is the signal's reason. */
export class AbortedError extends EntradaError {
  static override readonly kind = "aborted";
  declare readonly kind: "aborted";
  override readonly name: string = "AbortedError";
  /** The signal's `reason`, as given to `abort()`. */
  declare readonly reason: unknown;
  constructor(reason: unknown, info: ErrorContext = {}) {
    super(`aborted${reason instanceof Error ? `: ${reason.message}` : ""}`, {
      ...info,
      cause: reason,
      reason,
    } as ErrorContext);
  }
}

/** An argument of a call is invalid (a malformed locale, a 300-character idempotency key): nothing was sent. */
export class InvalidArgumentError extends EntradaError {
  static override readonly kind = "invalid-argument";
  declare readonly kind: "invalid-argument";
  override readonly name: string = "InvalidArgumentError";
  /** The option at fault, e.g. `locale` or `idempotencyKey`. */
  declare readonly argument: string;
  constructor(argument: string, message: string, info: ErrorContext = {}) {
    super(message, { ...info, argument } as ErrorContext);
  }
}

/** The server answered something the contract does not describe (HTML from a proxy, garbage, wrong type). */
export class UnexpectedBodyError extends EntradaError {
  static override readonly kind = "unexpected-body";
  declare readonly kind: "unexpected-body";
  override readonly name: string = "UnexpectedBodyError";
  declare readonly status: number;
  /** The raw body, exactly as received (decoded as UTF-8). */
  declare readonly body: string;
  declare readonly contentType: string | undefined;
  constructor(
    reason: string,
    body: string,
    contentType: string | undefined,
    info: ErrorContext & { status: number },
  ) {
    super(`${info.status} unexpected ${contentType ?? "body without content type"}: ${reason}`, {
      ...info,
      body,
      contentType,
    } as ErrorContext);
  }
}

/** @deprecated Renamed `UnexpectedBodyError` (kind `unexpected-body`). */
export const UnexpectedResponseError = UnexpectedBodyError;
/** @deprecated Renamed `UnexpectedBodyError`. */
export type UnexpectedResponseError = UnexpectedBodyError;

/**
 * Invalid configuration, thrown by `createClient`, `createShopClient` and `biFeed` before any request is made (a
 * `TypeError`, as a bad argument of a platform API is).
 */
export class EntradaConfigError extends TypeError {
  override readonly name = "EntradaConfigError";
}

/** `https://docs.entrada.dev/problems/sold-out` → `sold-out` (any other URI: its last path segment). */
export function problemSlug(type: string): string {
  const trimmed = type.replace(/[?#].*$/, "").replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/**
 * True when `error` is an `EntradaError` of that kind (`isEntradaError(error, "oauth")`), from any build of the
 * SDK; without a kind, any `EntradaError`.
 */
export function isErrorKind<K extends EntradaErrorKind>(
  error: unknown,
  kind: K,
): error is Extract<KnownEntradaError, { kind: K }> {
  return isEntradaError(error) && error.kind === kind;
}

/** True when `error` is a problem with the given slug (from any build of the SDK), narrowing its type. */
export function isProblem<S extends ProblemSlug>(error: unknown, slug: S): error is EntradaProblemError<S> {
  return isErrorKind(error, "problem") && error.slug === slug;
}

/** The error classes of the core (the BI entry adds `ODataError`). */
export type KnownEntradaError =
  | EntradaProblemError
  | OAuthError
  | NetworkError
  | TimeoutError
  | AbortedError
  | InvalidArgumentError
  | UnexpectedBodyError;
