import { fail } from "./errors.ts";
import type { WebhookEvent } from "./events.ts";
import { header, type WebhookHeaders } from "./headers.ts";
import { hmac, type RawBody, toBytes } from "./hmac.ts";

export type { WebhookHeaders };

export interface VerifyWebhookOptions {
  /** Accepted clock difference in seconds, in both directions. Default 300. */
  toleranceSeconds?: number;
  /** The current time (a `Date`, or milliseconds like `Date.now()`). Default: the system clock. */
  now?: Date | number;
  /** Larger bodies are rejected before any hashing. Default 1 MiB. */
  maxBodyBytes?: number;
}

/** Compares in time that depends only on the lengths, never on where the strings differ. */
const equal = (a: string, b: string): boolean => {
  let diff = a.length ^ b.length;
  for (let i = 0; i < b.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
};

const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * Verifies a Standard Webhooks delivery and returns the parsed event. The body is parsed only after a signature
 * matched. Every rejection is a `WebhookVerificationError` with a `code`.
 *
 * @param rawBody the body exactly as received (never a re-serialised object)
 * @param secrets the endpoint's signing secret, or several while rotating (`whsec_...`)
 * @example
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.ENTRADA_WEBHOOK_SECRET);
 * if (event.type === "ticket.issued") console.log(event.data);
 */
export async function verifyWebhook(
  rawBody: RawBody,
  headers: WebhookHeaders,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const body = toBytes(rawBody);
  if (typeof body !== "string" && !(body instanceof Uint8Array)) {
    fail("invalid_body", "Pass the raw request body (string or bytes), not a parsed object");
  }
  const id = header(headers, "webhook-id");
  const ts = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !ts || !signature) {
    fail("missing_header", "webhook-id, webhook-timestamp and webhook-signature headers are required");
  }
  const max = options.maxBodyBytes ?? 1048576;
  // Comparisons are written to fail closed: a NaN option or clock rejects instead of accepting everything.
  if (
    !(body.length <= max) ||
    (typeof body === "string" && body.length * 3 > max && !(encoded(body) <= max))
  ) {
    fail("payload_too_large", `Webhook body exceeds ${max} bytes`);
  }
  if (!/^\d{1,12}$/.test(ts as string)) fail("invalid_timestamp", "webhook-timestamp must be Unix seconds");
  const skew = Number(ts) - Math.floor(Number(options.now ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? 300;
  if (!(skew >= -tolerance)) fail("timestamp_too_old", "webhook-timestamp is too old");
  if (!(skew <= tolerance)) fail("timestamp_too_new", "webhook-timestamp is in the future");

  const candidates: string[] = [];
  let wellFormed = false;
  for (const part of (signature as string).split(" ")) {
    const comma = part.indexOf(",");
    if (comma < 1) continue;
    wellFormed = true;
    // Unknown versions (v1a, v2, ...) are ignored, as the standard asks.
    if (part.slice(0, comma) === "v1") candidates.push(part.slice(comma + 1));
  }
  if (!wellFormed) fail("malformed_signature", "webhook-signature holds no '<version>,<signature>' entry");

  const list = typeof secrets === "string" ? [secrets] : secrets;
  if (!list?.length) fail("invalid_secret", "At least one webhook secret is required");
  let matched = false;
  for (const secret of list) {
    let expected = hmac(secret, `${id}.${ts}.`, body);
    if (typeof expected !== "string") expected = await expected;
    for (const candidate of candidates) matched = equal(candidate, expected) || matched;
  }
  if (!matched) fail("no_matching_signature", "No webhook signature matches the secret(s)");

  let event: unknown;
  try {
    event = JSON.parse(typeof body === "string" ? body : decoder.decode(body));
  } catch {
    fail("invalid_json", "Webhook body is not valid UTF-8 JSON");
  }
  if (typeof (event as WebhookEvent | null)?.type !== "string") {
    fail("invalid_json", "Webhook body is not an event object with a string 'type'");
  }
  return event as WebhookEvent;
}

const encoded = (s: string): number => new TextEncoder().encode(s).length;
