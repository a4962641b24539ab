/**
 * Every failure the client reports is an `EntradaError`; programs switch on `kind`, and for problem details
 * on `slug` (the last segment of the RFC 9457 `type` URI), never on the localized text.
 */

/** Problem slugs of the catalogue in the contract (`https://docs.entrada.dev/problems/<slug>`). */
export type ProblemSlug =
  | "validation-error"
  | "malformed-request"
  | "unauthorized"
  | "forbidden"
  | "not-found"
  | "method-not-allowed"
  | "not-acceptable"
  | "payload-too-large"
  | "unsupported-media-type"
  | "idempotency-key-in-use"
  | "idempotency-key-reused"
  | "conflict"
  | "sold-out"
  | "insufficient-capacity"
  | "hold-expired"
  | "cart-locked"
  | "cart-not-ready"
  | "payment-declined"
  | "unprocessable"
  | "rate-limited"
  | "service-unavailable"
  | "internal-error";

/** The base URI of problem types. */
export const PROBLEM_TYPE_BASE = "https://docs.entrada.dev/problems/";

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
  /** The operation id from the contract, for calls made through a section method. */
  operationId?: string | undefined;
  method?: string | undefined;
  url?: string | undefined;
  /** Attempts made, retries included. */
  attempts?: number | undefined;
  cause?: unknown;
}

export type EntradaErrorKind = "problem" | "oauth" | "network" | "timeout" | "unexpected-response";

/** Base class of every error a request can end in. */
export abstract class EntradaError extends Error {
  abstract readonly kind: EntradaErrorKind;
  readonly status: number | undefined;
  readonly logId: string | undefined;
  readonly idempotencyKey: string | undefined;
  readonly requestId: string | undefined;
  readonly operationId: string | undefined;
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly attempts: number | undefined;

  constructor(message: string, info: ErrorContext = {}) {
    super(message, info.cause === undefined ? undefined : { cause: info.cause });
    this.status = info.status;
    this.logId = info.logId;
    this.idempotencyKey = info.idempotencyKey;
    this.requestId = info.requestId;
    this.operationId = info.operationId;
    this.method = info.method;
    this.url = info.url;
    this.attempts = info.attempts;
  }
}

/** The API answered with `application/problem+json` (RFC 9457). */
export class EntradaProblemError<S extends string = ProblemSlug | (string & {})> extends EntradaError {
  readonly kind = "problem" as const;
  override readonly name: string = "EntradaProblemError";
  declare readonly status: number;
  /** The full problem type URI. */
  readonly type: string;
  /** Last segment of `type`: what programs switch on (a catalogue slug, or a newer one this SDK predates). */
  readonly slug: S;
  readonly title: string;
  readonly detail: string | undefined;
  readonly instance: string | undefined;
  /** Invalid inputs of a `validation-error` (empty otherwise). */
  readonly errors: readonly ProblemFieldError[];
  /** The parsed body, extensions included. */
  readonly problem: ProblemDetails;
  /** Seconds from `Retry-After`, when present (429, 503). */
  readonly retryAfter: number | undefined;

  constructor(
    problem: ProblemDetails,
    info: ErrorContext & { status: number; retryAfter?: number | undefined },
  ) {
    super(`${problem.title}${problem.detail ? `: ${problem.detail}` : ""} (${problemSlug(problem.type)})`, {
      ...info,
      logId: info.logId ?? problem.logId,
    });
    this.type = problem.type;
    this.slug = problemSlug(problem.type) as S;
    this.title = problem.title;
    this.detail = problem.detail;
    this.instance = problem.instance;
    this.errors = Array.isArray(problem.errors) ? problem.errors : [];
    this.problem = problem;
    this.retryAfter = info.retryAfter;
  }

  /** Narrow to one slug: `if (error.is("sold-out")) ...`. */
  is<T extends S>(slug: T): this is EntradaProblemError<T> {
    return this.slug === slug;
  }
}

/** The token endpoint refused the credentials or the request (RFC 6749 §5.2). */
export class OAuthError extends EntradaError {
  readonly kind = "oauth" as const;
  override readonly name: string = "OAuthError";
  /** The RFC 6749 error code, e.g. `invalid_client`. */
  readonly error: OAuthErrorCode | (string & {});
  readonly errorDescription: string | undefined;
  readonly errorUri: string | undefined;

  constructor(
    body: { error: string; error_description?: string | undefined; error_uri?: string | undefined },
    info: ErrorContext = {},
  ) {
    super(
      `Token request failed: ${body.error}${body.error_description ? ` (${body.error_description})` : ""}`,
      info,
    );
    this.error = body.error;
    this.errorDescription = body.error_description;
    this.errorUri = body.error_uri;
  }
}

/** No response arrived: DNS, connection reset, TLS, CORS, offline. */
export class NetworkError extends EntradaError {
  readonly kind = "network" as const;
  override readonly name: string = "NetworkError";
  constructor(message: string, info: ErrorContext = {}) {
    super(message, info);
  }
}

/** An attempt or the whole call ran out of time. */
export class TimeoutError extends EntradaError {
  readonly kind = "timeout" as const;
  override readonly name: string = "TimeoutError";
  /** `attempt`: one try exceeded `timeoutMs`; `total`: the call exceeded `totalTimeoutMs`. */
  readonly scope: "attempt" | "total";
  readonly timeoutMs: number;
  constructor(scope: "attempt" | "total", timeoutMs: number, info: ErrorContext = {}) {
    super(
      scope === "attempt"
        ? `The request timed out after ${timeoutMs} ms`
        : `The call exceeded its total timeout of ${timeoutMs} ms`,
      info,
    );
    this.scope = scope;
    this.timeoutMs = timeoutMs;
  }
}

/** The server answered something the contract does not describe (HTML from a proxy, garbage, wrong type). */
export class UnexpectedResponseError extends EntradaError {
  readonly kind = "unexpected-response" as const;
  override readonly name: string = "UnexpectedResponseError";
  declare readonly status: number;
  /** The raw body, exactly as received (decoded as UTF-8). */
  readonly body: string;
  readonly contentType: string | undefined;
  constructor(
    reason: string,
    body: string,
    contentType: string | undefined,
    info: ErrorContext & { status: number },
  ) {
    super(`Unexpected response (HTTP ${info.status}, ${contentType ?? "no content type"}): ${reason}`, info);
    this.body = body;
    this.contentType = contentType;
  }
}

/** Invalid client configuration, thrown by `createClient` before any request is made. */
export class EntradaConfigError extends Error {
  override readonly name = "EntradaConfigError";
}

/** `https://docs.entrada.dev/problems/sold-out` → `sold-out` (any other URI: its last path segment). */
export function problemSlug(type: string): string {
  if (type.startsWith(PROBLEM_TYPE_BASE)) return type.slice(PROBLEM_TYPE_BASE.length);
  const trimmed = type.replace(/[?#].*$/, "").replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  return slash === -1 ? trimmed : trimmed.slice(slash + 1);
}

/** True when `error` is a problem with the given slug, narrowing its type. */
export function isProblem<S extends ProblemSlug>(error: unknown, slug: S): error is EntradaProblemError<S> {
  return error instanceof EntradaProblemError && error.slug === slug;
}
