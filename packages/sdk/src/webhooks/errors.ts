/** Why a webhook delivery was rejected. Programs switch on this, never on the message. */
export type WebhookVerificationErrorCode =
  | "missing_header"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature"
  | "malformed_signature"
  | "payload_too_large"
  | "invalid_json"
  | "invalid_secret"
  | "invalid_body";

/**
 * A delivery failed verification (or the verifier was misconfigured: `invalid_secret`, `invalid_body`).
 * Answer such deliveries with 400 (401 for signature failures is fine too); never process them.
 */
export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
  readonly code: WebhookVerificationErrorCode;
  constructor(code: WebhookVerificationErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export function fail(code: WebhookVerificationErrorCode, message: string): never {
  throw new WebhookVerificationError(code, message);
}
