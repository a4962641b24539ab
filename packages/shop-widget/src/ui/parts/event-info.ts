import { useQueries } from "@tanstack/react-query";
import type { EventDetail } from "../../core/types";
import { useShop } from "../context";
import { keys } from "../query-cache";

export interface LineEvent {
  name: string;
  /** Start of the booked slot (the event's start when the slot is unknown). */
  startsAt: string;
  venue: string;
}

/**
 * The events behind cart lines and tickets (name, slot start, venue), from the same cached queries the event
 * step uses: one request per event, none when the buyer came through the event page.
 */
export function useLineEvents(eventIds: string[]) {
  const { api, locale } = useShop();
  const ids = [...new Set(eventIds)];
  const queries = useQueries({
    queries: ids.map((eventId) => ({
      queryKey: keys.event(locale, eventId),
      queryFn: () => api.getEvent(eventId, { locale }),
      staleTime: 5 * 60_000,
    })),
  });
  const events = new Map<string, EventDetail>();
  ids.forEach((id, index) => {
    const data = queries[index]?.data;
    if (data) events.set(id, data);
  });
  return {
    queries,
    events,
    of(eventId: string, slotId: string): LineEvent | undefined {
      const event = events.get(eventId);
      if (event === undefined) return undefined;
      const slot = event.slots.find((s) => s.id === slotId);
      return {
        name: event.name,
        startsAt: slot?.startsAt ?? event.startsAt,
        venue: event.venue.city ? `${event.venue.name}, ${event.venue.city}` : event.venue.name,
      };
    },
  };
}
