/** An OData error: rendered as `{error: {code, message, target, details}}` (OData JSON format §21), not problem+json. */
export class ODataError extends Error {
  readonly status: number;
  readonly code: string;
  readonly target: string | undefined;
  readonly details: { code: string; message: string; target?: string }[];

  constructor(
    status: number,
    code: string,
    message: string,
    target?: string,
    details: { code: string; message: string; target?: string }[] = [],
  ) {
    super(message);
    this.name = "ODataError";
    this.status = status;
    this.code = code;
    this.target = target;
    this.details = details;
  }

  toJSON(): { error: Record<string, unknown> } {
    const error: Record<string, unknown> = { code: this.code, message: this.message };
    if (this.target !== undefined) error.target = this.target;
    if (this.details.length > 0) error.details = this.details;
    return { error };
  }
}

/** 400: the request is malformed (syntax, unknown property, type mismatch). */
export function badRequest(message: string, target?: string): ODataError {
  return new ODataError(400, "BadRequest", message, target);
}

/** 501: valid OData that this service does not implement. */
export function notImplemented(message: string, target?: string): ODataError {
  return new ODataError(501, "NotImplemented", message, target);
}
