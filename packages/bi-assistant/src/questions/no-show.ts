import { aggregateUrl, equals } from "../requests.ts";
import { footer, gatherAll, type Obj, PROVENANCE, type Tool, table } from "../tool.ts";

import {
  and,
  EVENT,
  EVENT_ID,
  EVENT_PROPERTIES,
  eventCells,
  scopeOf,
  TIME_ZONE,
  TIME_ZONE_OUT,
} from "./shared.ts";

/** The share of sold tickets never scanned, per event. */
export const noShowRatePerEvent: Tool = {
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
      ...PROVENANCE,
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
