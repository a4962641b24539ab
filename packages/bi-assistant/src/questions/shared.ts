import { ArgumentProblem } from "../arguments.ts";
import { type EventCatalogue, type EventInfo, eventCatalogue, pickEvent } from "../events.ts";
import { aggregateUrl } from "../requests.ts";
import {
  calendarDay,
  checkTimeZone,
  DAY,
  dayText,
  localDateTime,
  localTime,
  offsetLabel,
  startOfDay,
  wholeHours,
} from "../time.ts";
import { gatherAll, type Obj, type ToolContext } from "../tool.ts";

/**
 * What the questions an organiser asks share: the event and zone arguments, the period, the UTC buckets read
 * in a zone. The questions, each one aggregation on the feed (paged), arranged here from the groups it
 * returns — never from the dataset's rows — and read in a time zone: the venue's by default. The feed groups by
 * UTC day and hour (and minute, for a zone that is not a whole number of hours off UTC); each group is then one
 * local hour, so days and hours come out exact on daylight-saving days too.
 */

export const HOUR = 3_600_000;

export const EVENT = {
  type: "string",
  minLength: 1,
  maxLength: 200,
  description:
    "The event, by name as you would say it (a part of the name is enough when only one event has it; case and accents do not matter) or by id (evt_…). A name several events share answers with the candidates to choose from.",
} as const;
export const EVENT_ID = {
  type: "string",
  maxLength: 100,
  description: "The event's id (evt_…), e.g. from find_events; or give `event` with its name.",
} as const;
export const TIME_ZONE = {
  type: "string",
  minLength: 1,
  maxLength: 64,
  description:
    "IANA time zone the days and hours are read in, e.g. Europe/Zurich, or UTC. Default: the venue's time zone. Not an offset (+01:00): an offset ignores daylight saving.",
} as const;
export const TIME_ZONE_OUT = {
  type: "string",
  description: "IANA time zone of the days and hours of this answer.",
} as const;

/** What a question is about: its event (if it names one), the events of the data, and the zone it reads time in. */
export interface Scope {
  catalogue: EventCatalogue;
  event: EventInfo | null;
  zone: string;
  /** Why the zone is what it is, when that needs saying. */
  zoneNote: string | null;
}

/** Days given as arguments, checked before anything is fetched (format, real day, order). */
export function checkDays(args: Obj): void {
  const from = typeof args.from === "string" ? calendarDay("from", args.from) : null;
  const to = typeof args.to === "string" ? calendarDay("to", args.to) : null;
  if (from !== null && to !== null && from >= to)
    throw new ArgumentProblem(
      `\`from\` (${args.from}) must be before \`to\` (${args.to}); \`to\` is the day after the last one (exclusive): for ${args.to} alone write from ${args.to}, to ${dayText((to as number) + DAY)}.`,
    );
}

export async function scopeOf(ctx: ToolContext, args: Obj): Promise<Scope> {
  checkDays(args);
  const asked = typeof args.timeZone === "string" ? checkTimeZone(args.timeZone) : null;
  const catalogue = await eventCatalogue(ctx);
  const event = pickEvent(catalogue, args);
  if (asked) return { catalogue, event, zone: asked, zoneNote: null };
  if (event) return { catalogue, event, zone: event.timeZone, zoneNote: null };
  const zones = [...new Set(catalogue.events.map((e) => e.timeZone))];
  if (zones.length <= 1) return { catalogue, event, zone: zones[0] ?? "UTC", zoneNote: null };
  return {
    catalogue,
    event,
    zone: "UTC",
    zoneNote: `Your venues are in ${zones.length} time zones (${zones.join(", ")}); days and hours are UTC here. Pass \`timeZone\` or one \`event\` to read them at a venue.`,
  };
}

export interface Period {
  from: string;
  to: string;
  /** The instants the period starts and ends at in the zone. */
  start: number;
  end: number;
}

/** `[from, to)` in days of the zone: the arguments, or the 7 days before today there — "last week". */
export function periodOf(ctx: ToolContext, args: Obj, zone: string): Period {
  const today = localTime(zone, ctx.today()).day;
  const to = typeof args.to === "string" ? calendarDay("to", args.to) : today;
  const from = typeof args.from === "string" ? calendarDay("from", args.from) : to - 7 * DAY;
  if (from >= to)
    throw new ArgumentProblem(
      `\`from\` (${dayText(from)}) must be before \`to\` (${dayText(to)}); \`to\` is exclusive and defaults to today (${dayText(today)}).`,
    );
  return { from: dayText(from), to: dayText(to), start: startOfDay(zone, from), end: startOfDay(zone, to) };
}

export const and = (...terms: (string | null)[]) => terms.filter(Boolean).join(" and ");

/** The UTC buckets a question groups a date-time by, so that each group falls in one local hour of the zone. */
export function utcBuckets(property: string, zone: string, instants: number[]) {
  const buckets = [
    { expr: `date(${property})`, as: "Day" },
    { expr: `hour(${property})`, as: "Hour" },
  ];
  if (!wholeHours(zone, instants)) buckets.push({ expr: `minute(${property})`, as: "Minute" });
  return buckets;
}

/** The instant a UTC bucket row starts at. */
export const bucketStart = (r: Obj) =>
  Date.parse(`${String(r.Day)}T00:00:00Z`) + Number(r.Hour) * HOUR + Number(r.Minute ?? 0) * 60_000;

/** "Europe/Zurich (UTC+1)", or "Europe/Zurich (UTC+1/UTC+2)" across a daylight-saving change. */
export function zoneHeading(zone: string, instants: number[]): string {
  const offsets = [...new Set(instants.map((t) => offsetLabel(zone, t)))].sort();
  return zone === "UTC" ? "UTC" : `${zone} (${offsets.join("/")})`;
}

/** The first and last instant the data holds of a date-time, for telling "no data there" from "nothing happened". */
export async function dataRange(
  ctx: ToolContext,
  dataset: "Tickets" | "Entrances",
  property: string,
  filter: string,
): Promise<{ first: number; last: number } | null> {
  const { url } = aggregateUrl(ctx.feed.root, {
    dataset,
    filter,
    aggregates: [
      { method: "min", property, as: "First" },
      { method: "max", property, as: "Last" },
    ],
  });
  const got = await gatherAll<Obj>(ctx, url);
  const row = got.rows[0];
  if (!row || row.First === null || row.First === undefined) return null;
  return { first: Date.parse(String(row.First)), last: Date.parse(String(row.Last)) };
}

/** An ArgumentProblem when the period lies wholly outside the data: a question there would only answer "none". */
export async function checkInsideData(
  period: Period,
  zone: string,
  range: () => Promise<{ first: number; last: number } | null>,
  what: string,
): Promise<void> {
  const r = await range();
  if (!r) return;
  if (period.end <= r.first || period.start > r.last) {
    const first = dayText(localTime(zone, r.first).day);
    const last = dayText(localTime(zone, r.last).day);
    throw new ArgumentProblem(
      `There is no data from ${period.from} to ${period.to} (exclusive): your ${what} run from ${first} to ${last} (${zone}). Ask within that range, e.g. from ${dayText(Math.max(calendarDay("to", last) - 7 * DAY, calendarDay("from", first)))} to ${dayText(calendarDay("to", last) + DAY)}.`,
    );
  }
}

/** The event columns every table row carries: name and start at the venue. */
export function eventCells(e: EventInfo | undefined, id: string) {
  return {
    eventId: id,
    eventName: e?.eventName ?? id,
    eventStartsAt: e?.startsAt ?? null,
    startsAt: e ? localDateTime(e.timeZone, Date.parse(e.startsAt)) : null,
  };
}

export const EVENT_PROPERTIES = {
  eventId: { type: "string" },
  eventName: { type: "string" },
  eventStartsAt: { type: ["string", "null"], description: "When the event starts (RFC 3339, UTC)." },
} as const;
