/**
 * RFC 3339 (UTC) text of the mock clock's instants, exactly as `Date#toISOString` writes them, without a `Date`:
 * the day's part is kept (see `dayPrefixes`), the time of day is arithmetic. Formatting an instant through a
 * `Date` costs about a microsecond, and one request that creates a cart formats three (the webhook event's
 * timestamp, the cart's `createdAt` and `updatedAt`). Instants outside years 0000–9999, fractional or not finite go
 * through `Date` as before (extended years, the truncation, the RangeError).
 */
import { Kept } from "./kept.ts";

const DAY_MS = 86_400_000;
/** 10000-01-01T00:00:00Z: from here on `toISOString` writes six-digit years. */
const FIRST_EXTENDED_YEAR_MS = 253_402_300_800_000;
const TWO_DIGITS = Array.from({ length: 100 }, (_, n) => String(n).padStart(2, "0"));

/**
 * `YYYY-MM-DDT` of the days formatted lately (at most 64). More than one: a request often formats instants of two days
 * (a cart made today holds its seats until tomorrow), and a single kept day then went back to `Date` on every other
 * call.
 */
const dayPrefixes = new Kept<number, string>(64);

function dayPrefix(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 11);
}

/** `YYYY-MM-DDTHH:MM:SS` of an instant in the fast range (see `fastRange`). */
function toSecond(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  const prefix = dayPrefixes.get(day, dayPrefix);
  const seconds = Math.floor((ms - day * DAY_MS) / 1000);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor(seconds / 60) % 60;
  return `${prefix}${TWO_DIGITS[hours]}:${TWO_DIGITS[minutes]}:${TWO_DIGITS[seconds % 60]}`;
}

function fastRange(ms: number): boolean {
  return Number.isInteger(ms) && ms >= 0 && ms < FIRST_EXTENDED_YEAR_MS;
}

/** `new Date(ms).toISOString()`: `2026-11-26T11:20:35.123Z`. */
export function isoTimestamp(ms: number): string {
  if (!fastRange(ms)) return new Date(ms).toISOString();
  const milli = ms % 1000;
  return `${toSecond(ms)}.${milli < 10 ? "00" : milli < 100 ? "0" : ""}${milli}Z`;
}

/** The same to the second (the contract's timestamps): `2026-11-26T11:20:35Z`. */
export function isoSeconds(ms: number): string {
  if (!fastRange(ms)) return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
  return `${toSecond(ms)}Z`;
}

/**
 * `Date.parse` of timestamps the shop reads again and again (a slot's start, checked on every cart change), kept
 * per text (at most 1024): a parse costs a few hundred nanoseconds, a kept one a lookup.
 */
const parsed = new Kept<string, number>(1024);

export function parsedTime(text: string): number {
  return parsed.get(text, Date.parse);
}
