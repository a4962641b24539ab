import { zonedInstant, zoneOffset } from "@entrada/zoned-time";
import { closest } from "fastest-levenshtein";
import { ArgumentProblem } from "./arguments.ts";

/**
 * Calendar days and hours in an IANA time zone, with `Intl.DateTimeFormat` only (every Node carries the zone data).
 * The feed's date-times are UTC instants; an organiser reads them at the venue, where 19:00 is 18:00Z in winter and
 * 17:00Z in summer, and where the last Sunday of March has 23 hours.
 */

const HOUR = 3_600_000;
export const DAY = 86_400_000;
const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `value` as a calendar day (its UTC midnight, ms), or an ArgumentProblem naming the argument: `2026-02-30` is no day
 * (Date.parse would take it as 2 March and answer for another day).
 */
export function calendarDay(name: string, value: string): number {
  const m = DAY_TEXT.exec(value);
  if (!m) throw new ArgumentProblem(`\`${name}\` is not a calendar day: ${value}; write YYYY-MM-DD.`);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const ms = Date.UTC(year, month - 1, day);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) {
    const last = new Date(Date.UTC(year, Math.min(Math.max(month, 1), 12), 0)).getUTCDate();
    const why =
      month < 1 || month > 12
        ? `there is no month ${month}`
        : `${value.slice(0, 7)} has ${last} days (the last is ${value.slice(0, 8)}${String(last).padStart(2, "0")})`;
    throw new ArgumentProblem(`\`${name}\` is not a calendar day: ${value}; ${why}.`);
  }
  return ms;
}

/** YYYY-MM-DD of a UTC midnight (ms). */
export const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

const ZONES = (() => {
  const names = new Set<string>(Intl.supportedValuesOf("timeZone"));
  names.add("UTC");
  return [...names];
})();
const OFFSET = /^(?:(?:UTC|GMT|Z)\s*)?[+\-−]\s*\d{1,2}(?::?\d{2})?$/i;

/**
 * An IANA time zone name as the caller wrote it, checked: an offset (`+01:00`, `UTC+2`) is refused, since it does
 * not follow daylight saving and a day would shift by an hour half the year; an unknown name gets the closest one.
 */
export function checkTimeZone(value: string): string {
  const text = value.trim();
  if (/^(UTC|GMT|Etc\/UTC|Etc\/GMT|Z)$/i.test(text)) return "UTC";
  if (OFFSET.test(text) || /^[+\-−]/.test(text))
    throw new ArgumentProblem(
      `\`timeZone\` must be an IANA time zone name such as Europe/Zurich (or UTC), not an offset (${value}): an offset does not follow daylight saving, so half the year every hour would be off by one.`,
    );
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    const near = closest(text, ZONES);
    throw new ArgumentProblem(
      `\`timeZone\`: ${value} is not an IANA time zone; did you mean ${near}? Write Area/City, e.g. Europe/Zurich, or UTC.`,
    );
  }
  // A zone Intl knows but that is not a place (`EST`, `CET`) is as ambiguous as an offset.
  if (!text.includes("/"))
    throw new ArgumentProblem(
      `\`timeZone\`: ${value} is an abbreviation, not a place; write the IANA name of the venue's place, e.g. Europe/Zurich.`,
    );
  // The caller's name where it is another name of the zone (ICU resolves Asia/Kolkata to the older Asia/Calcutta).
  return resolved.toLowerCase() === text.toLowerCase() ? resolved : text;
}

/** The instant a calendar day starts in the zone (its local midnight; the day's UTC midnight given in ms). */
export function startOfDay(zone: string, utcMidnight: number): number {
  return zonedInstant(zone, utcMidnight);
}

/** The local calendar day (its UTC midnight, ms), hour and minute of an instant in the zone. */
export function localTime(zone: string, instant: number): { day: number; hour: number; minute: number } {
  const wall = instant + zoneOffset(zone, instant);
  const day = Math.floor(wall / DAY) * DAY;
  const rest = wall - day;
  return { day, hour: Math.floor(rest / HOUR), minute: Math.floor((rest % HOUR) / 60_000) };
}

/** Whether the zone is a whole number of hours off UTC at these instants (then UTC hours map to local hours). */
export function wholeHours(zone: string, instants: readonly number[]): boolean {
  return instants.every((t) => zoneOffset(zone, t) % HOUR === 0);
}

/** "2026-03-29 19:00" in the zone. */
export function localDateTime(zone: string, instant: number): string {
  const t = localTime(zone, instant);
  return `${dayText(t.day)} ${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;
}

/** "UTC+1" / "UTC+2" / "UTC+5:30" at an instant: said beside the zone's name so a reader sees the hours' offset. */
export function offsetLabel(zone: string, instant: number): string {
  const minutes = Math.round(zoneOffset(zone, instant) / 60_000);
  if (minutes === 0) return "UTC";
  const sign = minutes < 0 ? "−" : "+";
  const abs = Math.abs(minutes);
  return `UTC${sign}${Math.floor(abs / 60)}${abs % 60 ? `:${String(abs % 60).padStart(2, "0")}` : ""}`;
}
