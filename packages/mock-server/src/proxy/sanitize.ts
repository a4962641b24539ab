/**
 * Removes secrets and personal data from whatever the proxy keeps or prints (drift examples, recordings, logs):
 * credential headers, members whose name says secret/token/password/e-mail/phone/card, and — in any string —
 * e-mail addresses, phone numbers, card numbers (Luhn-valid runs of 13–19 digits), bearer and Basic credentials,
 * JWTs, webhook signing secrets (`whsec_…`) and the credential query parameters of links (the contract's
 * `signedUrl` scheme puts one in `ticketUrl` and `receiptUrl`: `?expires=…&signature=…`).
 * Replacements keep the value's shape where a seed or an example needs it to stay valid (an e-mail stays an
 * e-mail address), and say what was removed.
 */
import { contentTypeOf } from "../core/media-type.ts";
import { luhn } from "../sections/shop/checkout.ts";

export const REDACTED = "[redacted]";
export const REDACTED_EMAIL = "redacted@example.invalid";
export const REDACTED_PHONE = "+41000000000";

/** Headers whose value is a credential or a session: never kept. */
const SECRET_HEADERS =
  /^(?:authorization|proxy-authorization|cookie|set-cookie|x-api-key|x-entrada-admin-token|www-authenticate-token|webhook-signature)$/;

/** Member names whose value is a secret or personal data. */
const SECRET_NAME =
  /(?:secret|password|passwd|token|signature|authorization|api[-_]?key|credential|iban|cvc|cvv|^pan$|card[-_]?number)/i;
const EMAIL_NAME = /e-?mail/i;
const PHONE_NAME = /phone|mobile|^tel$/i;

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;
const JWT = /\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;
const PHONE = /\+\d[\d ()/.-]{6,18}\d/g;
const DIGIT_RUN = /\b\d(?:[ -]?\d){12,18}\b/g;
const WEBHOOK_SECRET = /\bwhsec_[A-Za-z0-9+/=_-]+/g;
/**
 * A credential in a link's query, wherever the link appears (a JSON member, a header, a log line): the
 * `signedUrl` scheme's `signature`, and other names that carry one. The value becomes `redacted`, which keeps a
 * link a valid URI (examples built from recordings still validate).
 */
const QUERY_CREDENTIAL =
  /([?&](?:signature|sig|token|access_token|session_token|api_key|apikey|key|admin_token|client_secret)=)[^&#\s"'<>]+/gi;
export const REDACTED_PARAM = "redacted";

/** A string with e-mail addresses, bearer credentials, JWTs, phone and card numbers replaced. */
export function sanitizeText(text: string): string {
  return text
    .replace(QUERY_CREDENTIAL, (_m, name: string) => `${name}${REDACTED_PARAM}`)
    .replace(WEBHOOK_SECRET, REDACTED)
    .replace(BEARER, (_m, scheme: string) => `${scheme} ${REDACTED}`)
    .replace(JWT, REDACTED)
    .replace(EMAIL, REDACTED_EMAIL)
    .replace(PHONE, REDACTED_PHONE)
    .replace(DIGIT_RUN, (run) => {
      const digits = run.replace(/\D/g, "");
      return luhn(digits) ? "0".repeat(digits.length) : run;
    });
}

/** A JSON value with secret members replaced and every string scanned (depth-limited; no cycles in JSON). */
export function sanitizeJson(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return sanitizeText(value);
  if (value === null || typeof value !== "object" || depth > 64) return value;
  if (Array.isArray(value)) return value.map((item) => sanitizeJson(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined || typeof member === "boolean") out[key] = member;
    else if (EMAIL_NAME.test(key) && typeof member === "string") out[key] = REDACTED_EMAIL;
    else if (PHONE_NAME.test(key) && typeof member === "string") out[key] = REDACTED_PHONE;
    else if (SECRET_NAME.test(key) && !/type$|expires|_in$|ttl/i.test(key))
      out[key] = typeof member === "object" ? REDACTED : REDACTED;
    else out[key] = sanitizeJson(member, depth + 1);
  }
  return out;
}

/** Headers with credentials removed and values scanned. Names lower-case. */
export function sanitizeHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, rawValue] of Object.entries(headers)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const value = Array.isArray(rawValue) ? rawValue.join(", ") : rawValue;
    out[name] = SECRET_HEADERS.test(name) ? REDACTED : sanitizeText(value);
  }
  return out;
}

/** A URL path with query: secret parameters (by name) removed, other values scanned. */
export function sanitizePath(pathWithQuery: string): string {
  const index = pathWithQuery.indexOf("?");
  if (index < 0) return sanitizeText(pathWithQuery);
  const params = new URLSearchParams(pathWithQuery.slice(index + 1));
  const out = new URLSearchParams();
  for (const [key, value] of params)
    out.append(key, SECRET_NAME.test(key) ? REDACTED_PARAM : sanitizeText(value));
  return `${sanitizeText(pathWithQuery.slice(0, index))}?${out.toString()}`;
}

/**
 * A body as text for a report or a recording: JSON parsed and sanitized (kept as a value), a form body with its
 * secret fields removed, anything else scanned as text; null when there is none. `limit` caps the text kept.
 */
export function sanitizeBody(
  body: Uint8Array | string | null,
  contentType: string | undefined,
  limit: number,
): { json?: unknown; text?: string; truncated?: boolean } | null {
  if (body === null) return null;
  const text = typeof body === "string" ? body : new TextDecoder().decode(body);
  if (text.length === 0) return null;
  const type = contentTypeOf(contentType).media;
  if (type === "application/x-www-form-urlencoded") {
    const params = new URLSearchParams(text);
    const out: Record<string, string> = {};
    for (const [key, value] of params) out[key] = SECRET_NAME.test(key) ? REDACTED : sanitizeText(value);
    return { json: out };
  }
  if (text.length <= limit && (type.endsWith("json") || /^\s*[[{]/.test(text))) {
    try {
      return { json: sanitizeJson(JSON.parse(text)) };
    } catch {
      // Not JSON after all: kept as sanitized text below.
    }
  }
  if (text.length > limit) return { text: sanitizeText(text.slice(0, limit)), truncated: true };
  return { text: sanitizeText(text) };
}
