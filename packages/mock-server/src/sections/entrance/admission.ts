import type { World } from "../../core/types.ts";
import { externalTicketByQuicode } from "../external-entrance/state.ts";
import { shopEvent, shopTicketByQuicode } from "../shared/shop-view.ts";
import type { TicketSummaryRecord } from "./state.ts";

/** Doors open this long before a slot starts. */
export const DOORS_OPEN_BEFORE_MS = 2 * 3_600_000;

export interface ResolvedTicket {
  summary: TicketSummaryRecord;
  /** Write the entrance status back to where the ticket lives (the shop's ticket or the imported ticket). */
  setStatus(status: "valid" | "used"): void;
}

/** Validity window of a shop ticket: from doors (2 h before its slot) to the end of the slot (or the event). */
function shopValidity(
  world: World,
  eventId: string,
  slotId: string | null,
): { from: string | null; until: string | null } {
  const event = shopEvent(world, eventId);
  if (!event) return { from: null, until: null };
  const slot = event.slots.find((s) => s.id === slotId);
  const start = slot?.startsAt || event.startsAt;
  const end = slot?.endsAt || event.endsAt;
  return {
    from: start ? new Date(Date.parse(start) - DOORS_OPEN_BEFORE_MS).toISOString() : null,
    until: end ? new Date(Date.parse(end)).toISOString() : null,
  };
}

/** Find the ticket a scanned payload belongs to: an imported external ticket or a shop ticket (exact Quicode). */
export function resolveTicket(world: World, quicode: string): ResolvedTicket | null {
  const external = externalTicketByQuicode(world, quicode);
  if (external) {
    return {
      summary: {
        id: external.id,
        source: "external",
        vendor: external.vendor,
        eventId: external.eventId,
        slotId: null,
        articleName: null,
        holderName: external.holderName,
        validFrom: external.validFrom,
        validUntil: external.validUntil,
        status: external.status,
      },
      setStatus(status) {
        external.status = status;
      },
    };
  }
  const ticket = shopTicketByQuicode(world, quicode);
  if (!ticket) return null;
  const validity = shopValidity(world, ticket.eventId, ticket.slotId);
  return {
    summary: {
      id: ticket.id,
      source: "shop",
      eventId: ticket.eventId,
      slotId: ticket.slotId,
      articleName: ticket.articleName,
      holderName: ticket.holderName,
      validFrom: validity.from,
      validUntil: validity.until,
      status: ticket.status,
    },
    setStatus(status) {
      // The shop's ticket shows `used` while its holder is inside (GET /orders/{id}/tickets agrees with the gate).
      ticket.record.status = status;
    },
  };
}
