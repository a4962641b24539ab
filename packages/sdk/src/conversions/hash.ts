/**
 * Meta's normalisation and hashing of customer information (Conversions API, "Customer information parameters"):
 * normalise, then SHA-256 as lowercase hex. Web Crypto only, so it runs in Node, Deno, Bun, workers and browsers.
 */

const encoder = new TextEncoder();

/** SHA-256 of the UTF-8 text as 64 lowercase hex digits. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
  let hex = "";
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0");
  return hex;
}

/** `em`: trimmed and lowercased. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

/**
 * `ph`: digits only, with the country code and without a leading `+`, `00` or zeros (`+41 79 123 45 67` →
 * `41791234567`). Returns undefined when fewer than 7 digits remain (not a phone number).
 */
export function normalizePhone(phone: string): string | undefined {
  const digits = phone.replace(/\D+/g, "").replace(/^0+/, "");
  return digits.length >= 7 && digits.length <= 15 ? digits : undefined;
}

/** `fn`/`ln`: lowercase letters only (Unicode, NFC): no spaces, punctuation or digits (`Anne-Marie` → `annemarie`). */
export const normalizeName = (name: string): string =>
  name
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}]+/gu, "");

/** A hex SHA-256 as Meta expects it. */
export const isSha256Hex = (value: unknown): value is string =>
  typeof value === "string" && /^[0-9a-f]{64}$/.test(value);
