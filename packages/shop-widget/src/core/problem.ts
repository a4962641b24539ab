import { problemSlug as sdkProblemSlug } from "@entrada/sdk/shop";

/** Problem slugs (DECISIONS.md catalogue) the widget handles specially; everything else is `generic`. */
export type ShopErrorKind =
  | "sold-out"
  | "insufficient-capacity"
  | "hold-expired"
  | "cart-locked"
  | "cart-not-ready"
  | "payment-declined"
  | "voucher-unknown"
  | "voucher-expired"
  | "voucher-not-applicable"
  | "voucher-used-up"
  | "validation-error"
  | "not-found"
  | "rate-limited"
  | "session-expired"
  | "network"
  | "payment-failed"
  | "payment-cancelled"
  | "payment-pending"
  /** The server refused details the host locked (`lockBuyer`): only the organiser can correct them. */
  | "buyer-refused"
  /** The host's configuration is wrong (e.g. a `buyer` value that fails validation); the host alone hears of it. */
  | "invalid-config"
  | "generic";

const KNOWN = new Set<string>([
  "sold-out",
  "insufficient-capacity",
  "hold-expired",
  "cart-locked",
  "cart-not-ready",
  "payment-declined",
  "voucher-unknown",
  "voucher-expired",
  "voucher-not-applicable",
  "voucher-used-up",
  "validation-error",
  "not-found",
  "rate-limited",
]);

export interface FieldError {
  /** JSON Pointer into the request, e.g. `/body/email`. */
  pointer: string;
  detail: string;
}

/** An error the widget can show and report: a problem from the API, a lost network, or an expired session. */
export class ShopError extends Error {
  override readonly name = "ShopError";
  readonly kind: ShopErrorKind;
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  /** The problem `type` URI, when the server answered with one. */
  readonly type: string | undefined;
  readonly logId: string | undefined;
  readonly fieldErrors: FieldError[];

  constructor(
    kind: ShopErrorKind,
    message: string,
    init: {
      status?: number;
      type?: string;
      logId?: string;
      fieldErrors?: FieldError[];
      cause?: unknown;
    } = {},
  ) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = kind;
    this.status = init.status;
    this.type = init.type;
    this.logId = init.logId;
    this.fieldErrors = init.fieldErrors ?? [];
  }
}

/** The slug of a problem `type` URI (`https://docs.entrada.dev/problems/sold-out` → `sold-out`): the SDK's rule. */
export function problemSlug(type: unknown): string | undefined {
  return typeof type === "string" && type.length > 0 ? sdkProblemSlug(type) : undefined;
}

/** Turn anything thrown by a transport (SDK error, problem body, TypeError from fetch) into a ShopError. */
export function toShopError(error: unknown): ShopError {
  if (error instanceof ShopError) return error;
  if (typeof error === "object" && error !== null) {
    const e = error as Record<string, unknown>;
    const problem = (typeof e.problem === "object" && e.problem !== null ? e.problem : e) as Record<
      string,
      unknown
    >;
    const status = typeof e.status === "number" ? e.status : (problem.status as number | undefined);
    const slug = problemSlug(problem.type ?? e.type);
    if (status === 401 || slug === "unauthorized") {
      return new ShopError("session-expired", String(problem.detail ?? "Session expired"), {
        status: 401,
        cause: error,
      });
    }
    if (slug !== undefined && typeof status === "number") {
      const fieldErrors = Array.isArray(problem.errors) ? (problem.errors as FieldError[]) : [];
      return new ShopError(
        KNOWN.has(slug) ? (slug as ShopErrorKind) : "generic",
        String(problem.detail ?? problem.title ?? slug),
        {
          status,
          type: String(problem.type ?? e.type),
          ...(typeof problem.logId === "string" ? { logId: problem.logId } : {}),
          fieldErrors,
          cause: error,
        },
      );
    }
    if (error instanceof TypeError || e.name === "TypeError" || e.name === "NetworkError") {
      return new ShopError("network", String(e.message ?? "Network error"), { cause: error });
    }
  }
  return new ShopError("generic", error instanceof Error ? error.message : String(error), { cause: error });
}
