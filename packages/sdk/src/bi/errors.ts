import { EntradaError } from "../core/errors.ts";

/** One entry of an OData error's `details`. */
export interface ODataErrorDetail {
  code: string;
  message: string;
  target?: string;
}

/**
 * The BI feed refused a request (OData JSON error `{error: {code, message, target, details}}`), answered something
 * that is not an OData response, or broke the paging protocol: an `EntradaError` of kind `odata`. `status` is 0
 * for client-side protocol checks. (Problems, OAuth, network, timeout and abort failures of the feed come as the
 * SDK's other `EntradaError` kinds.)
 */
export class ODataError extends EntradaError {
  static override readonly kind = "odata";
  declare readonly kind: "odata";
  override readonly name: string = "ODataError";
  declare readonly status: number;
  /** The server's `error.code`, or ours: `http_error`, `invalid_response`, `cross_origin_next_link`, `next_link_loop`. */
  declare readonly code: string;
  /** The server's `error.message` (or ours), without the request prefix of `message`. */
  declare readonly detail: string;
  declare readonly target: string | undefined;
  declare readonly details: readonly ODataErrorDetail[];
  /** The response body as received (truncated to 64 KB), for diagnosis. */
  declare readonly rawBody: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    target?: string | undefined;
    details?: readonly ODataErrorDetail[] | undefined;
    rawBody?: string | undefined;
    url?: string | undefined;
    logId?: string | undefined;
    cause?: unknown;
  }) {
    super(`${init.status ? `${init.status} ` : ""}${init.code}: ${init.message}`, {
      status: init.status,
      method: "GET",
      url: init.url,
      logId: init.logId,
      cause: init.cause,
    });
    this.code = init.code;
    this.detail = init.message;
    this.target = init.target;
    this.details = init.details ?? [];
    this.rawBody = init.rawBody;
  }
}
