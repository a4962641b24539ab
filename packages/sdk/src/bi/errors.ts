/** One entry of an OData error's `details`. */
export interface ODataErrorDetail {
  code: string;
  message: string;
  target?: string;
}

/**
 * The BI feed refused a request (OData JSON error `{error: {code, message, target, details}}`), answered something
 * that is not an OData response, or broke the paging protocol. `status` is 0 for client-side protocol checks.
 */
export class ODataError extends Error {
  override readonly name = "ODataError";
  readonly status: number;
  /** The server's `error.code`, or ours: `http_error`, `invalid_response`, `cross_origin_next_link`, `next_link_loop`, `network_error`. */
  readonly code: string;
  readonly target: string | undefined;
  readonly details: readonly ODataErrorDetail[];
  /** The response body as received (truncated to 64 KB), for diagnosis. */
  readonly rawBody: string | undefined;
  /** The request URL that failed. */
  readonly url: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    target?: string | undefined;
    details?: readonly ODataErrorDetail[] | undefined;
    rawBody?: string | undefined;
    url?: string | undefined;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.target = init.target;
    this.details = init.details ?? [];
    this.rawBody = init.rawBody;
    this.url = init.url;
  }
}
