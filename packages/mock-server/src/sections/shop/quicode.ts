/**
 * Quicodes: the scannable payload printed as a QR code on a ticket, `Q1.<ticketId>.<checksum>`.
 * The checksum (FNV-1a over version and ticket id, 6 Crockford base-32 characters) lets a scanner reject
 * mistyped or forged codes offline.
 */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function checksum(input: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < input.length; i++) hash = Math.imul(hash ^ input.charCodeAt(i), 16777619) >>> 0;
  let out = "";
  for (let i = 0; i < 6; i++) {
    out += ALPHABET[hash % 32];
    hash = Math.floor(hash / 32);
  }
  return out;
}

export function quicodeFor(ticketId: string): string {
  return `Q1.${ticketId}.${checksum(`Q1.${ticketId}`)}`;
}

/** The ticket id of a well-formed Quicode with a valid checksum, else null. */
export function parseQuicode(code: string): string | null {
  const match = /^Q1\.(tkt_[0-9A-Za-z]{1,60})\.([0-9A-Z]{6})$/.exec(code);
  if (!match) return null;
  return checksum(`Q1.${match[1]}`) === match[2] ? (match[1] ?? null) : null;
}
