import type { Culture } from "../../../core/types.ts";
import { type MessageKey, type MessageParams, message } from "./messages.ts";

export type ODataErrorCode =
  | "BadRequest"
  | "InvalidFilter"
  | "UnknownProperty"
  | "InvalidSkipToken"
  | "NotImplemented"
  | "NotFound";

export interface ODataErrorDetail {
  code: string;
  key: MessageKey;
  params: MessageParams;
  target: string | null;
}

/**
 * An OData error, rendered as `{error: {code, message, target, details, innererror}}` (OData JSON Format §21),
 * not problem+json. Messages are localized at render time.
 */
export class ODataError extends Error {
  readonly status: number;
  readonly code: ODataErrorCode;
  readonly key: MessageKey;
  readonly params: MessageParams;
  readonly target: string | null;
  readonly details: ODataErrorDetail[];

  constructor(
    status: number,
    code: ODataErrorCode,
    key: MessageKey,
    params: MessageParams,
    target: string | null,
    details: ODataErrorDetail[] = [],
  ) {
    super(message(key, params, "en-GB"));
    this.name = "ODataError";
    this.status = status;
    this.code = code;
    this.key = key;
    this.params = params;
    this.target = target;
    this.details = details;
  }

  render(culture: Culture, logId?: string): { error: Record<string, unknown> } {
    return {
      error: {
        code: this.code,
        message: message(this.key, this.params, culture),
        target: this.target,
        details: this.details.map((d) => ({
          code: d.code,
          message: message(d.key, d.params, culture),
          target: d.target,
        })),
        ...(logId ? { innererror: { logId } } : {}),
      },
    };
  }
}

/** 400 for a malformed query option (code `InvalidFilter` inside `$filter`/`$orderby`). */
export function badRequest(
  key: MessageKey,
  params: MessageParams,
  target: string | null,
  code: ODataErrorCode = "BadRequest",
): ODataError {
  return new ODataError(400, code, key, params, target);
}

/** 501: valid OData this service does not implement. */
export function notImplemented(key: MessageKey, params: MessageParams, target: string | null): ODataError {
  return new ODataError(501, "NotImplemented", key, params, target);
}
