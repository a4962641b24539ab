import { ArgumentProblem } from "./arguments.ts";
import { aggregateUrl, equals, midnight } from "./requests.ts";
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
 * The questions a ticketing manager asks, each one aggregation on the feed (one `$apply` request, paged), then
 * arranged here from the groups it returns — never from the dataset's rows.
 */

const DAY = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `[from, to)` in days: the arguments, or the 7 days before today (UTC) — "last week". */
function period(ctx: ToolContext, args: Obj): { from: string; to: string } {
  const today = Math.floor(ctx.now() / DAY) * DAY;
  const to = typeof args.to === "string" ? args.to : dayOf(today);
  const from = typeof args.from === "string" ? args.from : dayOf(Date.parse(`${to}T00:00:00Z`) - 7 * DAY);
  for (const [name, value] of [
    ["from", from],
    ["to", to],
  ] as const)
    if (Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
      throw new ArgumentProblem(`\`${name}\` is not a calendar day: ${value}; write YYYY-MM-DD.`);
  if (from >= to)
    throw new ArgumentProblem(`\`from\` (${from}) must be before \`to\` (${to}); \`to\` is exclusive.`);
  return { from, to };
}

const and = (...terms: (string | null)[]) => terms.filter(Boolean).join(" and ");

const EVENT_ID = { type: "string", maxLength: 100, description: "Only this event (evt_…)." } as const;

const salesPerEventAndDay: Tool = {
  name: "sales_per_event_and_day",
  title: "Tickets sold per event and day",
  description:
    "Shop tickets sold (issued and not cancelled) per event and day, with revenue per currency, over [from, to) — by default last week: the 7 days before today (UTC). Answers “how many tickets did we sell per event last week?”.",
  inputSchema: {
    type: "object",
    properties: {
      from: { ...DAY_SCHEMA, description: "First day (UTC), inclusive. Default: 7 days before `to`." },
      to: { ...DAY_SCHEMA, description: "Day after the last one (UTC), exclusive. Default: today." },
      eventId: EVENT_ID,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["from", "to", "events", "days", "request", "requests", "note"],
    properties: {
      from: { type: "string" },
      to: { type: "string" },
      events: {
        type: "array",
        items: {
          type: "object",
          required: ["eventId", "eventName", "tickets", "revenue"],
          properties: {
            eventId: { type: "string" },
            eventName: { type: "string" },
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
            day: { type: "string" },
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
  example: { from: "2026-11-16", to: "2026-11-23" },
  async run(ctx, args) {
    const { from, to } = period(ctx, args);
    const filter = and(
      "Source eq 'shop'",
      "Status ne 'cancelled'",
      `IssuedAt ge ${midnight(from)}`,
      `IssuedAt lt ${midnight(to)}`,
      typeof args.eventId === "string" ? equals("EventId", args.eventId) : null,
    );
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Tickets",
      filter,
      groupBy: ["EventId", "EventName", "Currency"],
      timeBucket: { property: "IssuedAt", unit: "day" },
      aggregates: [
        { method: "count", as: "Tickets" },
        { method: "sum", property: "PriceAmount", as: "Revenue" },
      ],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const days = got.rows
      .map((r) => ({
        eventId: String(r.EventId),
        eventName: String(r.EventName),
        day: String(r.Day),
        currency: (r.Currency as string | null) ?? null,
        tickets: Number(r.Tickets),
        revenue: (r.Revenue as number | null) ?? null,
      }))
      .sort((a, b) => (a.eventName + a.day < b.eventName + b.day ? -1 : 1));
    const byEvent = new Map<
      string,
      { eventId: string; eventName: string; tickets: number; revenue: Map<string | null, number> }
    >();
    for (const d of days) {
      const e = byEvent.get(d.eventId) ?? {
        eventId: d.eventId,
        eventName: d.eventName,
        tickets: 0,
        revenue: new Map(),
      };
      e.tickets += d.tickets;
      e.revenue.set(
        d.currency,
        Math.round(((e.revenue.get(d.currency) ?? 0) + (d.revenue ?? 0)) * 100) / 100,
      );
      byEvent.set(d.eventId, e);
    }
    const events = [...byEvent.values()]
      .sort((a, b) => b.tickets - a.tickets || (a.eventName < b.eventName ? -1 : 1))
      .map((e) => ({
        eventId: e.eventId,
        eventName: e.eventName,
        tickets: e.tickets,
        revenue: [...e.revenue].map(([currency, amount]) => ({ currency, amount })),
      }));
    const note =
      got.note ??
      (events.length === 0 ? `No shop tickets were sold from ${from} to ${to} (exclusive).` : null);
    const shown = events.map((e) => ({
      ...e,
      revenue: e.revenue.map((r) => `${r.amount.toFixed(2)} ${r.currency ?? ""}`.trim()).join(", "),
    }));
    return {
      structured: { from, to, events, days, request: url, requests: got.requests, note },
      text: [
        `Tickets sold per event, ${from} to ${to} (exclusive), UTC:`,
        "",
        table(shown, ["eventName", "eventId", "tickets", "revenue"]),
        "",
        "Per day:",
        "",
        table(days, ["eventName", "day", "currency", "tickets", "revenue"]),
        footer(got.requests, note),
      ].join("\n"),
    };
  },
};

const noShowRatePerEvent: Tool = {
  name: "no_show_rate_per_event",
  title: "No-show rate per event",
  description:
    "Per event: tickets that were not cancelled, how many were admitted at a gate (status used) and how many were not (no-shows), and the no-show rate. For an event still to come, tickets not yet admitted count as no-shows so far.",
  inputSchema: {
    type: "object",
    properties: { eventId: EVENT_ID },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["events", "request", "requests", "note"],
    properties: {
      events: {
        type: "array",
        items: {
          type: "object",
          required: ["eventId", "eventName", "tickets", "admitted", "noShows", "noShowRate"],
          properties: {
            eventId: { type: "string" },
            eventName: { type: "string" },
            tickets: { type: "integer" },
            admitted: { type: "integer" },
            noShows: { type: "integer" },
            noShowRate: { type: "number", description: "noShows / tickets, 0–1 (4 decimals)." },
          },
        },
      },
      request: PROVENANCE.request,
      requests: PROVENANCE.requests,
      note: PROVENANCE.note,
    },
  },
  example: {},
  async run(ctx, args) {
    const filter = and(
      "Status ne 'cancelled'",
      typeof args.eventId === "string" ? equals("EventId", args.eventId) : null,
    );
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Tickets",
      filter,
      groupBy: ["EventId", "EventName", "Status"],
      aggregates: [{ method: "count", as: "Tickets" }],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const byEvent = new Map<
      string,
      { eventId: string; eventName: string; tickets: number; admitted: number }
    >();
    for (const r of got.rows) {
      const id = String(r.EventId);
      const e = byEvent.get(id) ?? { eventId: id, eventName: String(r.EventName), tickets: 0, admitted: 0 };
      e.tickets += Number(r.Tickets);
      if (r.Status === "used") e.admitted += Number(r.Tickets);
      byEvent.set(id, e);
    }
    const events = [...byEvent.values()]
      .map((e) => ({
        ...e,
        noShows: e.tickets - e.admitted,
        noShowRate:
          e.tickets === 0 ? 0 : Math.round(((e.tickets - e.admitted) / e.tickets) * 10_000) / 10_000,
      }))
      .sort((a, b) => b.noShowRate - a.noShowRate || (a.eventName < b.eventName ? -1 : 1));
    const note = got.note;
    const shown = events.map((e) => ({ ...e, noShowRate: `${(e.noShowRate * 100).toFixed(1)} %` }));
    return {
      structured: { events, request: url, requests: got.requests, note },
      text: [
        "No-show rate per event (tickets not cancelled; admitted = scanned in at a gate):",
        "",
        table(shown, ["eventName", "eventId", "tickets", "admitted", "noShows", "noShowRate"]),
        footer(got.requests, note),
      ].join("\n"),
    };
  },
};

const peakEntryTimesPerGate: Tool = {
  name: "peak_entry_times_per_gate",
  title: "Peak entry times per gate",
  description:
    "Admitted entries per gate and hour of day (UTC), and each gate's peak hour, optionally for one event or a period [from, to). Answers “when is the rush at each gate?”.",
  inputSchema: {
    type: "object",
    properties: {
      from: { ...DAY_SCHEMA, description: "First day (UTC), inclusive." },
      to: { ...DAY_SCHEMA, description: "Day after the last one (UTC), exclusive." },
      eventId: EVENT_ID,
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["gates", "request", "requests", "note"],
    properties: {
      gates: {
        type: "array",
        items: {
          type: "object",
          required: ["gateId", "gateName", "entries", "peakHour", "peakEntries", "hours"],
          properties: {
            gateId: { type: "string" },
            gateName: { type: "string" },
            entries: { type: "integer" },
            peakHour: { type: "integer", description: "Hour of day (UTC, 0–23) with the most entries." },
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
  example: { eventId: "evt_01JDWZ3N4P5Q6R7S8T9V0W1X2Y" },
  async run(ctx, args) {
    for (const name of ["from", "to"])
      if (typeof args[name] === "string" && Number.isNaN(Date.parse(`${args[name]}T00:00:00Z`)))
        throw new ArgumentProblem(
          `\`${name}\` is not a calendar day: ${String(args[name])}; write YYYY-MM-DD.`,
        );
    const filter = and(
      "Direction eq 'entry'",
      "Result eq 'admitted'",
      typeof args.from === "string" ? `ScannedAt ge ${midnight(args.from)}` : null,
      typeof args.to === "string" ? `ScannedAt lt ${midnight(args.to)}` : null,
      typeof args.eventId === "string" ? equals("EventId", args.eventId) : null,
    );
    const { url } = aggregateUrl(ctx.feed.root, {
      dataset: "Entrances",
      filter,
      groupBy: ["GateId", "GateName"],
      timeBucket: { property: "ScannedAt", unit: "hour" },
      aggregates: [{ method: "count", as: "Entries" }],
    });
    const got = await gatherAll<Obj>(ctx, url);
    const byGate = new Map<
      string,
      { gateId: string; gateName: string; hours: { hour: number; entries: number }[] }
    >();
    for (const r of got.rows) {
      const id = String(r.GateId);
      const g = byGate.get(id) ?? { gateId: id, gateName: String(r.GateName), hours: [] };
      g.hours.push({ hour: Number(r.Hour), entries: Number(r.Entries) });
      byGate.set(id, g);
    }
    const gates = [...byGate.values()].map((g) => {
      const hours = g.hours.sort((a, b) => a.hour - b.hour);
      const peak = hours.reduce(
        (best, h) => (h.entries > best.entries ? h : best),
        hours[0] as { hour: number; entries: number },
      );
      return {
        gateId: g.gateId,
        gateName: g.gateName,
        entries: hours.reduce((n, h) => n + h.entries, 0),
        peakHour: peak.hour,
        peakEntries: peak.entries,
        hours,
      };
    });
    const note = got.note ?? "Hours are UTC hours of day (0–23); a ticket admitted twice counts twice.";
    const shown = gates.map((g) => ({
      ...g,
      peakHour: `${String(g.peakHour).padStart(2, "0")}:00–${String(g.peakHour + 1).padStart(2, "0")}:00`,
    }));
    return {
      structured: { gates, request: url, requests: got.requests, note },
      text: [
        "Peak entry hour per gate (admitted entries, UTC):",
        "",
        table(shown, ["gateName", "gateId", "entries", "peakHour", "peakEntries"]),
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
