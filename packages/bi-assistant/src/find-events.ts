import { ArgumentProblem } from "./arguments.ts";
import { describeEvent, eventCatalogue, fold, matchEvents } from "./events.ts";
import { calendarDay, dayText, localDateTime, localTime } from "./time.ts";
import { DAY_SCHEMA, footer, PROVENANCE, type Tool, table } from "./tool.ts";

/** Events by name, venue and date: how a question finds the event an organiser means, and its id. */
export const findEvents: Tool = {
  name: "find_events",
  title: "Find events by name, venue or date",
  description:
    "The events of your data with their id, start (at the venue's local time), venue, time zone and tickets issued: all of them, or those whose name or venue holds the words you give (case and accents do not matter) and that start within [from, to). Use it to find the event a question means; the question tools also take `event` with the name directly.",
  inputSchema: {
    type: "object",
    properties: {
      name: { type: "string", minLength: 1, maxLength: 200, description: "Words of the event's name." },
      venue: { type: "string", minLength: 1, maxLength: 200, description: "Words of the venue's name." },
      from: { ...DAY_SCHEMA, description: "Events starting on this day or later (the venue's local day)." },
      to: { ...DAY_SCHEMA, description: "Events starting before this day (exclusive)." },
    },
    additionalProperties: false,
  },
  outputSchema: {
    type: "object",
    required: ["events", "request"],
    properties: {
      events: {
        type: "array",
        items: {
          type: "object",
          required: ["eventId", "eventName", "startsAt", "venueName", "timeZone", "tickets"],
          properties: {
            eventId: { type: "string" },
            eventName: { type: "string" },
            startsAt: { type: "string", description: "RFC 3339 (UTC)." },
            venueName: { type: "string" },
            timeZone: { type: "string", description: "The venue's IANA time zone." },
            tickets: { type: "integer", description: "Tickets issued (any status)." },
          },
        },
      },
      request: PROVENANCE.request,
    },
  },
  example: { name: "gala", from: "2026-12-01" },
  async run(ctx, args) {
    const from = typeof args.from === "string" ? calendarDay("from", args.from) : null;
    const to = typeof args.to === "string" ? calendarDay("to", args.to) : null;
    if (from !== null && to !== null && from >= to)
      throw new ArgumentProblem(
        `\`from\` (${args.from}) must be before \`to\` (${args.to}); \`to\` is exclusive.`,
      );
    const { events: all, request } = await eventCatalogue(ctx);
    let events = all;
    if (typeof args.name === "string") events = matchEvents(events, args.name);
    if (typeof args.venue === "string") events = matchEvents(events, args.venue, "venue");
    events = events.filter((e) => {
      const day = localTime(e.timeZone, Date.parse(e.startsAt)).day;
      return (from === null || day >= from) && (to === null || day < to);
    });
    if (events.length === 0 && all.length > 0) {
      const words = [args.name, args.venue].filter((v): v is string => typeof v === "string").map(fold);
      const hint = words.length
        ? ` Names are e.g. ${all
            .slice(0, 5)
            .map((e) => `"${e.eventName}"`)
            .join(", ")}.`
        : "";
      const span = `${dayText(localTime(all[0]?.timeZone ?? "UTC", Date.parse(all[0]?.startsAt ?? "")).day)} to ${dayText(localTime(all.at(-1)?.timeZone ?? "UTC", Date.parse(all.at(-1)?.startsAt ?? "")).day)}`;
      throw new ArgumentProblem(
        `No event matches ${JSON.stringify({ name: args.name, venue: args.venue, from: args.from, to: args.to })}; your ${all.length} events start from ${span}.${hint} Call find_events without arguments to list them all.`,
      );
    }
    const w = ctx.words;
    const shown = events.map((e) => ({
      eventName: e.eventName,
      startsAt: localDateTime(e.timeZone, Date.parse(e.startsAt)),
      venueName: e.venueName,
      timeZone: e.timeZone,
      eventId: e.eventId,
      tickets: w.count(e.tickets),
    }));
    return {
      structured: { events, request },
      text: [
        `${events.length} event${events.length === 1 ? "" : "s"}${events.length === 1 ? `: ${describeEvent(events[0] as (typeof events)[0])}` : ""}; starts at the venue's local time:`,
        "",
        table(shown, ["eventName", "startsAt", "venueName", "timeZone", "eventId", "tickets"], 50, {
          eventName: w.title("event"),
          startsAt: w.title("startsAt"),
          venueName: w.title("venue"),
          ...w.titles(["timeZone", "eventId", "tickets"]),
        }),
        footer([request], null),
      ].join("\n"),
    };
  },
};
