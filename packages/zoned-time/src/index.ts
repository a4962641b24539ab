/**
 * Local wall-clock time in an IANA time zone through `Intl.DateTimeFormat` (every runtime carries the zone data):
 * a venue's 18:00 is 17:00Z in winter and 16:00Z in summer, and the last Sunday of March has 23 hours.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** The zone's offset from UTC at an instant, in ms (Europe/Zurich in July: +7,200,000). */
export function zoneOffset(timeZone: string, instant: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatOf(timeZone).formatToParts(instant))
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  const wall = Date.UTC(
    parts.year as number,
    (parts.month as number) - 1,
    parts.day as number,
    parts.hour as number,
    parts.minute as number,
    parts.second as number,
  );
  return wall - (instant - (((instant % 1000) + 1000) % 1000));
}

/**
 * The instant a wall-clock time of a calendar day happens in a zone, e.g. 18:00 at the venue (the day given as its
 * UTC midnight, ms). A time skipped by a spring-forward change resolves after the gap, as a clock moved forward
 * reads it.
 * @example zonedInstant("Europe/Zurich", Date.UTC(2026, 2, 29), 18) // 2026-03-29T16:00:00Z (summer time)
 */
export function zonedInstant(timeZone: string, utcMidnight: number, hour = 0, minute = 0): number {
  const wall = utcMidnight + hour * 3_600_000 + minute * 60_000;
  const first = wall - zoneOffset(timeZone, wall);
  return wall - zoneOffset(timeZone, first);
}
