import { fail } from "./errors.ts";
import { hmac, type RawBody, toBytes } from "./hmac.ts";

export interface SignWebhookInput {
  /** The delivery id (`webhook-id`), the same for every retry of one message, e.g. `msg_...`. */
  id: string;
  /** When the attempt is sent: a `Date` or Unix **seconds** (as in the header). Default: now. */
  timestamp?: Date | number;
  /** The exact body that will be sent. */
  body: RawBody;
  /** `whsec_...`; several secrets (during a rotation) give several `v1,` signatures. */
  secret: string | readonly string[];
}

export type SignedWebhookHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/**
 * Signs a delivery the way Entrada does (Standard Webhooks v1). The mock server signs with this, and tests use it
 * to build deliveries for `verifyWebhook`.
 * @example
 * const body = JSON.stringify({ type: "ticket.issued", timestamp: new Date().toISOString(), data: {} });
 * const headers = await signWebhook({ id: "msg_1", body, secret: "whsec_..." });
 */
export async function signWebhook(input: SignWebhookInput): Promise<SignedWebhookHeaders> {
  const { id, body, secret } = input;
  const time = input.timestamp ?? new Date();
  const ts = String(Math.floor(typeof time === "number" ? time : time.getTime() / 1000));
  if (typeof id !== "string" || !id || /[\s,]/.test(id)) {
    throw new TypeError("Webhook id must be a non-empty token without spaces or commas");
  }
  const secrets = typeof secret === "string" ? [secret] : secret;
  const signatures: string[] = [];
  for (const s of secrets) signatures.push(`v1,${await hmac(s, `${id}.${ts}.`, toBytes(body))}`);
  if (!signatures.length) fail("invalid_secret", "At least one webhook secret is required");
  return { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": signatures.join(" ") };
}
