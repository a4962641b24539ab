import { aggregateUrl, equals, instant } from "../requests.ts";
import { DAY, dayText, localTime } from "../time.ts";
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

/** Entries per local hour and gate, busiest first. */
export const peakEntryTimesPerGate: Tool = {
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
      ...PROVENANCE,
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
