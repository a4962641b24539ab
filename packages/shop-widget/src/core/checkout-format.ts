/** Formats only the later steps show (kept out of the first load, where format.ts is). */

/**
 * A short, human order number from an order id (`ord_01M84QK…` → `QK7P-2QZ8`): the id's last eight
 * characters, grouped, easy to read out on the phone. The full id stays in the receipt and the API.
 */
export function orderNumber(id: string): string {
  const tail = id
    .replace(/^[a-z]+_/i, "")
    .slice(-8)
    .toUpperCase();
  return tail.length === 8 ? `${tail.slice(0, 4)}-${tail.slice(4)}` : tail;
}

/** A card number in groups of four ("4242 4242 4242 4242"); at most 19 digits. */
export function groupCardNumber(value: string): string {
  return (
    value
      .replace(/\D/g, "")
      .slice(0, 19)
      .match(/.{1,4}/g)
      ?.join(" ") ?? ""
  );
}

/** "9:05" for a countdown. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}
