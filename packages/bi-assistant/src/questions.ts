import { ArgumentProblem } from "./arguments.ts";
import { type EventCatalogue, type EventInfo, eventCatalogue, pickEvent } from "./events.ts";
import { aggregateUrl, equals, instant } from "./requests.ts";
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
} from "./time.ts";
import {
  DAY_SCHEMA,
  footer,
  gatherAll,
  type Obj,
  PROVENANCE,
  type Tool,
  type ToolContext,
  table,
} from "./tool.ts";

/**
 * The questions an organiser asks, each one aggregation on the feed (paged), arranged here from the groups it
 * returns — never from the dataset's rows — and read in a time zone: the venue's by default. The feed groups by
 * UTC day and hour (and minute, for a zone that is not a whole number of hours off UTC); each group is then one
 * local hour, so days and hours come out exact on daylight-saving days too.
 */

const HOUR = 3_600_000;

const EVENT = {
  type: "string",
  minLength: 1,
  maxLength: 200,
  description:
    "The event, by name as you would say it (a part of the name is enough when only one event has it; case and accents do not matter) or by id (evt_…). A name several events share answers with the candidates to choose from.",
} as const;
const EVENT_ID = {
  type: "string",
  maxLength: 100,
  description: "The event's id (evt_…), e.g. from find_events; or give `event` with its name.",
} as const;
const TIME_ZONE = {
  type: "string",
  minLength: 1,
  maxLength: 64,
  description:
    "IANA time zone the days and hours are read in, e.g. Europe/Zurich, or UTC. Default: the venue's time zone. Not an offset (+01:00): an offset ignores daylight saving.",
} as const;
const TIME_ZONE_OUT = {
  type: "string",
  description: "IANA time zone of the days and hours of this answer.",
} as const;

/** What a question is about: its event (if it names one), the events of the data, and the zone it reads time in. */
interface Scope {
  catalogue: EventCatalogue;
  event: EventInfo | null;
  zone: string;
  /** Why the zone is what it is, when that needs saying. */
  zoneNote: string | null;
}

/** Days given as arguments, checked before anything is fetched (format, real day, order). */
function checkDays(args: Obj): void {
  const from = typeof args.from === "string" ? calendarDay("from", args.from) : null;
  const to = typeof args.to === "string" ? calendarDay("to", args.to) : null;
  if (from !== null && to !== null && from >= to)
    throw new ArgumentProblem(
      `\`from\` (${args.from}) must be before \`to\` (${args.to}); \`to\` is the day after the last one (exclusive): for ${args.to} alone write from ${args.to}, to ${dayText((to as number) + DAY)}.`,
    );
}

async function scopeOf(ctx: ToolContext, args: Obj): Promise<Scope> {
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

interface Period {
  from: string;
  to: string;
  /** The instants the period starts and ends at in the zone. */
  start: number;
  end: number;
}

/** `[from, to)` in days of the zone: the arguments, or the 7 days before today there — "last week". */
function periodOf(ctx: ToolContext, args: Obj, zone: string): Period {
  const today = localTime(zone, ctx.today()).day;
  const to = typeof args.to === "string" ? calendarDay("to", args.to) : today;
  const from = typeof args.from === "string" ? calendarDay("from", args.from) : to - 7 * DAY;
  if (from >= to)
    throw new ArgumentProblem(
      `\`from\` (${dayText(from)}) must be before \`to\` (${dayText(to)}); \`to\` is exclusive and defaults to today (${dayText(today)}).`,
    );
  return { from: dayText(from), to: dayText(to), start: startOfDay(zone, from), end: startOfDay(zone, to) };
}

const and = (...terms: (string | null)[]) => terms.filter(Boolean).join(" and ");

/** The UTC buckets a question groups a date-time by, so that each group falls in one local hour of the zone. */
function utcBuckets(property: string, zone: string, instants: number[]) {
  const buckets = [
    { expr: `date(${property})`, as: "Day" },
    { expr: `hour(${property})`, as: "Hour" },
  ];
  if (!wholeHours(zone, instants)) buckets.push({ expr: `minute(${property})`, as: "Minute" });
  return buckets;
}

/** The instant a UTC bucket row starts at. */
const bucketStart = (r: Obj) =>
  Date.parse(`${String(r.Day)}T00:00:00Z`) + Number(r.Hour) * HOUR + Number(r.Minute ?? 0) * 60_000;

/** "Europe/Zurich (UTC+1)", or "Europe/Zurich (UTC+1/UTC+2)" across a daylight-saving change. */
function zoneHeading(zone: string, instants: number[]): string {
  const offsets = [...new Set(instants.map((t) => offsetLabel(zone, t)))].sort();
  return zone === "UTC" ? "UTC" : `${zone} (${offsets.join("/")})`;
}

/** The first and last instant the data holds of a date-time, for telling "no data there" from "nothing happened". */
async function dataRange(
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
async function checkInsideData(
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
function eventCells(e: EventInfo | undefined, id: string) {
  return {
    eventId: id,
    eventName: e?.eventName ?? id,
    eventStartsAt: e?.startsAt ?? null,
    startsAt: e ? localDateTime(e.timeZone, Date.parse(e.startsAt)) : null,
  };
}

const EVENT_PROPERTIES = {
  eventId: { type: "string" },
  eventName: { type: "string" },
  eventStartsAt: { type: ["string", "null"], description: "When the event starts (RFC 3339, UTC)." },
} as const;

const salesPerEventAndDay: Tool = {
  name: "sales_per_event_and_day",
  title: "Tickets sold per event and day",
  description:
    "Shop tickets sold (issued and not cancelled) per event and day, with revenue per currency at list price, over [from, to) in days of the venue's time zone — by default last week: the 7 days before today. Name the event by `event` (its name) or `eventId`, or leave both out for every event. Answers “how many tickets did we sell per event last week?”.",
  inputSchema: {
    type: "object",
    properties: {
      from: { ...DAY_SCHEMA, description: "First day, inclusive. Default: 7 days before `to`." },
      to: { ...DAY_SCHEMA, description: "Day after the last one (exclusive). Default: today." },
      event: EVENT,
      eventId: EVENT_ID,
      timeZone: TIME_ZONE,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["from", "to", "timeZone", "events", "days", "request", "requests", "note"],
    properties: {
      from: { type: "string" },
      to: { type: "string" },
      timeZone: TIME_ZONE_OUT,
      events: {
        type: "array",
        items: {
          type: "object",
          required: ["eventId", "eventName", "eventStartsAt", "tickets", "revenue"],
          properties: {
            ...EVENT_PROPERTIES,
            tickets: { type: "integer" },
            revenue: {
              type: "array",
              items: {
                type: "object",
                required: ["currency", "amount"],
                properties: { currency: { type: ["string", "null"] }, amount: { type: "number" } },
              },
            },
          },
        },
      },
      days: {
        type: "array",
        items: {
          type: "object",
          required: ["eventId", "eventName", "day", "currency", "tickets", "revenue"],
          properties: {
            eventId: { type: "string" },
            eventName: { type: "string" },
            day: { type: "string", description: "YYYY-MM-DD in `timeZone`." },
            currency: { type: ["string", "null"] },
            tickets: { type: "integer" },
            revenue: { type: ["number", "null"] },
          },
        },
      },
      request: PROVENANCE.request,
      requests: PROVENANCE.requests,
      note: PROVENANCE.note,
    },
  },
  example: { event: "Winter Gala", from: "2026-11-16", to: "2026-11-23" },
  async run(ctx, args) {
    const scope = await scopeOf(ctx, args);
    const { zone, event } = scope;
    const period = periodOf(ctx, args, zone);
    const base = and("Source eq 'shop'", event ? equals("EventId", event.eventId) : null);
    // Asked only when nothing was sold: whether the period lies outside the data altogether.
    const range = () => dataRange(ctx, "Tickets", "IssuedAt", base);
    const filter = and(
      base,
      "Status ne 'cancelled'",
      `IssuedAt ge ${instant(period.start)}`,
      `IssuedAt lt ${instant(period.end)}`,
    );
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Tickets",
      filter,
      groupBy: ["EventId", "Currency"],
      buckets: utcBuckets("IssuedAt", zone, [period.start, period.end - 1]),
      aggregates: [
        { method: "count", as: "Tickets" },
        { method: "sum", property: "PriceAmount", as: "Revenue" },
      ],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const events = new Map(scope.catalogue.events.map((e) => [e.eventId, e]));
    // Per event, local day and currency.
    const cells = new Map<
      string,
      { eventId: string; day: string; currency: string | null; tickets: number; revenue: number }
    >();
    for (const r of got.rows) {
      const day = dayText(localTime(zone, bucketStart(r)).day);
      const currency = (r.Currency as string | null) ?? null;
      const id = `${String(r.EventId)}\u0000${day}\u0000${currency}`;
      const cell = cells.get(id) ?? { eventId: String(r.EventId), day, currency, tickets: 0, revenue: 0 };
      cell.tickets += Number(r.Tickets);
      cell.revenue += Number(r.Revenue ?? 0);
      cells.set(id, cell);
    }
    const round = (n: number) => Math.round(n * 100) / 100;
    const days = [...cells.values()]
      .map((c) => ({
        eventId: c.eventId,
        eventName: events.get(c.eventId)?.eventName ?? c.eventId,
        day: c.day,
        currency: c.currency,
        tickets: c.tickets,
        revenue: c.currency === null ? null : round(c.revenue),
      }))
      .sort((a, b) => (a.eventName + a.day < b.eventName + b.day ? -1 : 1));
    const byEvent = new Map<string, { tickets: number; revenue: Map<string | null, number> }>();
    for (const d of days) {
      const e = byEvent.get(d.eventId) ?? { tickets: 0, revenue: new Map() };
      e.tickets += d.tickets;
      e.revenue.set(d.currency, round((e.revenue.get(d.currency) ?? 0) + (d.revenue ?? 0)));
      byEvent.set(d.eventId, e);
    }
    const totals = [...byEvent.entries()]
      .map(([id, e]) => ({
        ...eventCells(events.get(id), id),
        tickets: e.tickets,
        revenue: [...e.revenue].map(([currency, amount]) => ({ currency, amount })),
      }))
      .sort((a, b) => b.tickets - a.tickets || (a.eventName < b.eventName ? -1 : 1));
    if (totals.length === 0) await checkInsideData(period, zone, range, "shop sales");
    const named = event ? ` for ${event.eventName}` : "";
    const note =
      got.note ??
      (totals.length === 0
        ? `No shop tickets${named} were sold from ${period.from} to ${period.to} (exclusive, ${zone}).`
        : scope.zoneNote);
    const w = ctx.words;
    const money = (list: { currency: string | null; amount: number }[]) =>
      list.map((r) => w.money(r.amount, r.currency)).join(", ");
    const shownTotals = totals.map((e) => ({ ...e, tickets: w.count(e.tickets), revenue: money(e.revenue) }));
    const shownDays = days.map((d) => ({
      ...d,
      tickets: w.count(d.tickets),
      revenue: d.revenue === null ? null : w.money(d.revenue, d.currency),
    }));
    const heading = zoneHeading(zone, [period.start, period.end - 1]);
    return {
      structured: {
        from: period.from,
        to: period.to,
        timeZone: zone,
        events: totals.map(({ startsAt: _, ...e }) => e),
        days,
        request: url,
        requests: got.requests,
        note,
      },
      text: [
        `Tickets sold per event${named}, ${period.from} to ${period.to} (exclusive), days in ${heading}:`,
        "",
        table(shownTotals, ["eventName", "startsAt", "tickets", "revenue"], 50, {
          eventName: w.title("event"),
          startsAt: w.title("startsAt"),
          ...w.titles(["tickets", "revenue"]),
        }),
        "",
        `Per day (${heading}):`,
        "",
        table(shownDays, ["eventName", "day", "tickets", "revenue"], 50, {
          eventName: w.title("event"),
          day: w.title("day"),
          tickets: w.title("tickets"),
          revenue: w.title("revenue"),
        }),
        footer(got.requests, note),
      ].join("\n"),
    };
  },
};

const noShowRatePerEvent: Tool = {
  name: "no_show_rate_per_event",
  title: "No-show rate per event",
  description:
    "Per event: tickets that were not cancelled, how many were admitted at a gate (status used) and how many were not (no-shows), and the no-show rate; events still to come are listed without a rate. Name the event by `event` (its name) or `eventId`, or leave both out for every event.",
  inputSchema: {
    type: "object",
    properties: { event: EVENT, eventId: EVENT_ID, timeZone: TIME_ZONE },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["timeZone", "events", "request", "requests", "note"],
    properties: {
      timeZone: TIME_ZONE_OUT,
      events: {
        type: "array",
        items: {
          type: "object",
          required: [
            "eventId",
            "eventName",
            "eventStartsAt",
            "venueName",
            "held",
            "tickets",
            "admitted",
            "noShows",
            "noShowRate",
          ],
          properties: {
            ...EVENT_PROPERTIES,
            venueName: { type: "string" },
            held: { type: "boolean", description: "Whether the event has started (else no rate yet)." },
            tickets: { type: "integer" },
            admitted: { type: "integer" },
            noShows: { type: "integer" },
            noShowRate: {
              type: ["number", "null"],
              description: "noShows / tickets, 0–1 (4 decimals); null for an event still to come.",
            },
          },
        },
      },
      request: PROVENANCE.request,
      requests: PROVENANCE.requests,
      note: PROVENANCE.note,
    },
  },
  example: { event: "Winter Gala" },
  async run(ctx, args) {
    const scope = await scopeOf(ctx, args);
    const { event, zone } = scope;
    const filter = and("Status ne 'cancelled'", event ? equals("EventId", event.eventId) : null);
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Tickets",
      filter,
      groupBy: ["EventId", "Status"],
      aggregates: [{ method: "count", as: "Tickets" }],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const infos = new Map(scope.catalogue.events.map((e) => [e.eventId, e]));
    const counts = new Map<string, { tickets: number; admitted: number }>();
    for (const r of got.rows) {
      const id = String(r.EventId);
      const c = counts.get(id) ?? { tickets: 0, admitted: 0 };
      c.tickets += Number(r.Tickets);
      if (r.Status === "used") c.admitted += Number(r.Tickets);
      counts.set(id, c);
    }
    const today = ctx.today();
    const events = [...counts.entries()]
      .map(([id, c]) => {
        const info = infos.get(id);
        const held = info ? Date.parse(info.startsAt) <= today : true;
        const noShows = c.tickets - c.admitted;
        return {
          ...eventCells(info, id),
          venueName: info?.venueName ?? "",
          held,
          tickets: c.tickets,
          admitted: c.admitted,
          noShows,
          noShowRate: !held || c.tickets === 0 ? null : Math.round((noShows / c.tickets) * 10_000) / 10_000,
        };
      })
      .sort(
        (a, b) =>
          Number(b.held) - Number(a.held) ||
          (b.noShowRate ?? 0) - (a.noShowRate ?? 0) ||
          (a.eventName < b.eventName ? -1 : 1),
      );
    const upcoming = events.filter((e) => !e.held).length;
    const note =
      got.note ??
      (upcoming > 0
        ? `${upcoming} event${upcoming > 1 ? "s have" : " has"} not started yet: ${upcoming > 1 ? "their" : "its"} tickets are not counted as no-shows.`
        : null);
    const w = ctx.words;
    const shown = events.map((e) => ({
      ...e,
      startsAt: e.startsAt,
      tickets: w.count(e.tickets),
      admitted: e.held ? w.count(e.admitted) : "—",
      noShows: e.held ? w.count(e.noShows) : "—",
      noShowRate: e.noShowRate === null ? w.title("upcoming") : w.rate(e.noShowRate),
    }));
    return {
      structured: {
        timeZone: zone,
        events: events.map(({ startsAt: _, ...e }) => e),
        request: url,
        requests: got.requests,
        note,
      },
      text: [
        `No-show rate per event${event ? ` (${event.eventName})` : ""} (tickets not cancelled; admitted = scanned in at a gate); event starts at the venue's local time:`,
        "",
        table(
          shown,
          ["eventName", "startsAt", "venueName", "tickets", "admitted", "noShows", "noShowRate"],
          50,
          {
            eventName: w.title("event"),
            startsAt: w.title("startsAt"),
            venueName: w.title("venue"),
            ...w.titles(["tickets", "admitted", "noShows", "noShowRate"]),
          },
        ),
        footer(got.requests, note),
      ].join("\n"),
    };
  },
};

const peakEntryTimesPerGate: Tool = {
  name: "peak_entry_times_per_gate",
  title: "Peak entry times per gate",
  description:
    "Admitted entries per event, gate and hour of day in the venue's time zone, and each gate's peak hour, optionally for one event (`event` by name, or `eventId`) or a period [from, to) of days. Answers “when is the rush at each gate?”.",
  inputSchema: {
    type: "object",
    properties: {
      from: { ...DAY_SCHEMA, description: "First day, inclusive." },
      to: { ...DAY_SCHEMA, description: "Day after the last one (exclusive)." },
      event: EVENT,
      eventId: EVENT_ID,
      timeZone: TIME_ZONE,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["timeZone", "gates", "request", "requests", "note"],
    properties: {
      timeZone: TIME_ZONE_OUT,
      gates: {
        type: "array",
        items: {
          type: "object",
          required: [
            "eventId",
            "eventName",
            "eventStartsAt",
            "gateId",
            "gateName",
            "entries",
            "peakHour",
            "peakEntries",
            "hours",
          ],
          properties: {
            ...EVENT_PROPERTIES,
            gateId: { type: "string" },
            gateName: { type: "string" },
            entries: { type: "integer" },
            peakHour: {
              type: "integer",
              description: "Hour of day (0–23) in `timeZone` with the most entries.",
            },
            peakEntries: { type: "integer" },
            hours: {
              type: "array",
              items: {
                type: "object",
                required: ["hour", "entries"],
                properties: { hour: { type: "integer" }, entries: { type: "integer" } },
              },
            },
          },
        },
      },
      request: PROVENANCE.request,
      requests: PROVENANCE.requests,
      note: PROVENANCE.note,
    },
  },
  example: { event: "Winter Gala" },
  async run(ctx, args) {
    const scope = await scopeOf(ctx, args);
    const { event, zone } = scope;
    const bounded = typeof args.from === "string" || typeof args.to === "string";
    const period = bounded
      ? periodOf(ctx, { to: dayText(localTime(zone, ctx.today()).day + DAY), ...args }, zone)
      : null;
    const base = and(
      "Direction eq 'entry'",
      "Result eq 'admitted'",
      event ? equals("EventId", event.eventId) : null,
    );
    const range = period ? () => dataRange(ctx, "Entrances", "ScannedAt", base) : null;
    const filter = and(
      base,
      period ? `ScannedAt ge ${instant(period.start)}` : null,
      period ? `ScannedAt lt ${instant(period.end)}` : null,
    );
    // The instants the answer's hours span: what its heading's offsets and the buckets' exactness depend on.
    const edges = period
      ? [period.start, period.end - 1]
      : (event ? [event] : scope.catalogue.events).map((e) => Date.parse(e.startsAt));
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Entrances",
      filter,
      groupBy: ["EventId", "GateId", "GateName"],
      buckets: utcBuckets("ScannedAt", zone, edges.length ? edges : [ctx.today()]),
      aggregates: [{ method: "count", as: "Entries" }],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const infos = new Map(scope.catalogue.events.map((e) => [e.eventId, e]));
    const groups = new Map<
      string,
      { eventId: string; gateId: string; gateName: string; hours: Map<number, number> }
    >();
    for (const r of got.rows) {
      const id = `${String(r.EventId)}\u0000${String(r.GateId)}`;
      const g = groups.get(id) ?? {
        eventId: String(r.EventId),
        gateId: String(r.GateId),
        gateName: String(r.GateName),
        hours: new Map<number, number>(),
      };
      const hour = localTime(zone, bucketStart(r)).hour;
      g.hours.set(hour, (g.hours.get(hour) ?? 0) + Number(r.Entries));
      groups.set(id, g);
    }
    const gates = [...groups.values()]
      .map((g) => {
        const hours = [...g.hours]
          .map(([hour, entries]) => ({ hour, entries }))
          .sort((a, b) => a.hour - b.hour);
        const peak = hours.reduce(
          (best, h) => (h.entries > best.entries ? h : best),
          hours[0] as (typeof hours)[0],
        );
        return {
          ...eventCells(infos.get(g.eventId), g.eventId),
          gateId: g.gateId,
          gateName: g.gateName,
          entries: hours.reduce((n, h) => n + h.entries, 0),
          peakHour: peak.hour,
          peakEntries: peak.entries,
          hours,
        };
      })
      .sort((a, b) => ((a.eventStartsAt ?? "") < (b.eventStartsAt ?? "") ? -1 : 1) || b.entries - a.entries);
    if (gates.length === 0 && period && range) await checkInsideData(period, zone, range, "entrance scans");
    const heading = zoneHeading(zone, edges.length ? edges : [ctx.today()]);
    const within = period ? `, ${period.from} to ${period.to} (exclusive)` : "";
    const note =
      got.note ??
      (gates.length === 0
        ? `No admitted entries${event ? ` at ${event.eventName}` : ""}${within}.${event && Date.parse(event.startsAt) > ctx.today() ? " The event has not started yet." : ""}`
        : (scope.zoneNote ?? "A ticket admitted twice (after leaving) counts twice."));
    const w = ctx.words;
    const two = (n: number) => String(n).padStart(2, "0");
    const shown = gates.map((g) => ({
      ...g,
      entries: w.count(g.entries),
      peakEntries: w.count(g.peakEntries),
      peakHour: `${two(g.peakHour)}:00–${two((g.peakHour + 1) % 24)}:00`,
    }));
    return {
      structured: {
        timeZone: zone,
        gates: gates.map(({ startsAt: _, ...g }) => g),
        request: url,
        requests: got.requests,
        note,
      },
      text: [
        `Peak entry hour per event and gate (admitted entries${within}), hours in ${heading}:`,
        "",
        table(shown, ["eventName", "startsAt", "gateName", "entries", "peakHour", "peakEntries"], 50, {
          eventName: w.title("event"),
          startsAt: w.title("startsAt"),
          gateName: w.title("gate"),
          ...w.titles(["entries", "peakHour", "peakEntries"]),
        }),
        footer(got.requests, note),
      ].join("\n"),
    };
  },
};

export const QUESTION_TOOLS: readonly Tool[] = [
  salesPerEventAndDay,
  noShowRatePerEvent,
  peakEntryTimesPerGate,
];
