import { distance } from "fastest-levenshtein";
import { ArgumentProblem } from "./arguments.ts";
import { aggregateUrl } from "./requests.ts";
import { localDateTime } from "./time.ts";
import { gatherAll, type Obj, type ToolContext } from "./tool.ts";

/**
 * The events of the caller's data, as the feed knows them (one aggregation of Tickets by event: name, start,
 * venue and its time zone), and the event a question names: by id, or by name as an organiser writes it —
 * case, accents and spacing aside, a part of the name is enough when only one event has it.
 */

export interface EventInfo {
  eventId: string;
  eventName: string;
  /** RFC 3339 (UTC). */
  startsAt: string;
  venueName: string;
  timeZone: string;
  tickets: number;
}

export interface EventCatalogue {
  events: EventInfo[];
  /** The request that listed them. */
  request: string;
}

/** Names compared as a person reads them: case, accents, punctuation and repeated spaces aside. */
export const fold = (s: string): string =>
  s
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

/** Every event with tickets in the feed, soonest start first. */
export async function eventCatalogue(ctx: ToolContext): Promise<EventCatalogue> {
  const { url } = aggregateUrl(ctx.feed.root, {
    dataset: "Tickets",
    groupBy: ["EventId", "EventName", "EventStartsAt", "VenueName", "VenueTimeZone"],
    aggregates: [{ method: "count", as: "Tickets" }],
  });
  const got = await gatherAll<Obj>(ctx, url);
  const byId = new Map<string, EventInfo>();
  for (const r of got.rows) {
    const id = String(r.EventId);
    const seen = byId.get(id);
    if (seen) seen.tickets += Number(r.Tickets);
    else
      byId.set(id, {
        eventId: id,
        eventName: String(r.EventName ?? ""),
        startsAt: String(r.EventStartsAt ?? ""),
        venueName: String(r.VenueName ?? ""),
        timeZone: String(r.VenueTimeZone ?? "UTC"),
        tickets: Number(r.Tickets),
      });
  }
  const events = [...byId.values()].sort((a, b) =>
    a.startsAt < b.startsAt ? -1 : a.startsAt > b.startsAt ? 1 : a.eventName < b.eventName ? -1 : 1,
  );
  return { events, request: url };
}

/** How an event is listed in a message: "Winter Gala (evt_…, 2026-12-05 19:00, Hallenstadion Zürich)". */
export function describeEvent(e: EventInfo): string {
  return `${e.eventName} (${e.eventId}, ${localDateTime(e.timeZone, Date.parse(e.startsAt))} ${e.timeZone}, ${e.venueName})`;
}

/** Events whose name (or venue) holds every word of `query`, best first: the whole name, then its start. */
export function matchEvents(events: readonly EventInfo[], query: string, field: "name" | "venue" = "name") {
  const q = fold(query);
  const words = q.split(" ").filter(Boolean);
  const text = (e: EventInfo) => fold(field === "name" ? e.eventName : e.venueName);
  const exact = events.filter((e) => text(e) === q);
  if (exact.length > 0) return exact;
  return events.filter((e) => {
    const t = ` ${text(e)} `;
    return words.every((w) => t.includes(w));
  });
}

/** At most this many candidates are listed; beyond, the caller is asked to narrow the name. */
export const MAX_CANDIDATES = 8;

/**
 * The event a question names by `eventId` or `event` (a name or an id), or null when it names none. An unknown id,
 * a name that matches nothing or several events is an ArgumentProblem with what to call instead.
 */
export function pickEvent(catalogue: EventCatalogue, args: Obj): EventInfo | null {
  const { events } = catalogue;
  const id = typeof args.eventId === "string" ? args.eventId : undefined;
  const named = typeof args.event === "string" ? args.event.trim() : undefined;
  if (id !== undefined || (named !== undefined && /^evt_[0-9A-Za-z]+$/.test(named))) {
    const wanted = (id ?? named) as string;
    const found = events.find((e) => e.eventId === wanted);
    if (found) return found;
    const near = [...events].sort((a, b) => distance(wanted, a.eventId) - distance(wanted, b.eventId))[0];
    throw new ArgumentProblem(
      `No event ${wanted} in your data${near ? `; did you mean ${describeEvent(near)}?` : "."} Call find_events to look events up by name, venue or date.`,
    );
  }
  if (named === undefined) return null;
  if (fold(named) === "")
    throw new ArgumentProblem("`event` is empty; give a part of the event's name, or its id (evt_…).");
  const found = matchEvents(events, named);
  if (found.length === 1) return found[0] as EventInfo;
  if (found.length === 0) {
    const q = fold(named);
    const near = [...events]
      .map((e) => ({ e, d: distance(q, fold(e.eventName)) }))
      .sort((a, b) => a.d - b.d)
      .slice(0, 3)
      .map(({ e }) => describeEvent(e));
    throw new ArgumentProblem(
      `No event is named like "${named}"${near.length ? `; did you mean ${near.join(" or ")}?` : "."} Pass \`event\` again with one of these names or its id, or call find_events.`,
    );
  }
  const shown = found.slice(0, MAX_CANDIDATES).map((e) => `- ${describeEvent(e)}`);
  const more =
    found.length > MAX_CANDIDATES
      ? `\n…and ${found.length - MAX_CANDIDATES} more. Narrow the name, or call find_events with a venue or dates.`
      : "";
  throw new ArgumentProblem(
    `"${named}" matches ${found.length} events; which one? Call again with \`eventId\` set to one of these:\n${shown.join("\n")}${more}`,
  );
}
