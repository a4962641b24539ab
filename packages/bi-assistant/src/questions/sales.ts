import { aggregateUrl, equals, instant } from "../requests.ts";
import { dayText, localTime } from "../time.ts";
import { DAY_SCHEMA, footer, gatherAll, type Obj, PROVENANCE, type Tool, table } from "../tool.ts";

import {
  and,
  bucketStart,
  checkInsideData,
  dataRange,
  EVENT,
  EVENT_ID,
  EVENT_PROPERTIES,
  eventCells,
  periodOf,
  scopeOf,
  TIME_ZONE,
  TIME_ZONE_OUT,
  utcBuckets,
  zoneHeading,
} from "./shared.ts";

/** Tickets sold and revenue per event and local day. */
export const salesPerEventAndDay: Tool = {
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
      ...PROVENANCE,
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
