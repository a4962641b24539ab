/** What this integration does with each kind of event: `switch (event.type)` narrows `event.data`. */

import type { WebhookEvent } from "@entrada/sdk/webhooks";

/** One handled event, as this example records it (a real one would write to its CRM, warehouse, analytics...). */
export interface HandledEvent {
  id: string;
  type: string;
  /** The object the event is about (cart, order, ticket, payment or scan id). */
  subject: string | null;
  summary: string;
}

const money = (m: { amount: number; currency: string }) => `${(m.amount / 100).toFixed(2)} ${m.currency}`;

export function handleEvent(event: WebhookEvent, id: string): HandledEvent {
  const handled = (subject: string | null, summary: string): HandledEvent => ({
    id,
    type: event.type,
    subject,
    summary,
  });
  switch (event.type) {
    case "cart.completed": {
      // The purchase: forward the conversion (value, currency, transaction id) to analytics or a CRM.
      const { order } = event.data;
      return handled(
        order.id,
        `order ${order.id} paid by ${order.customer.email}: ${money(order.total)}, tickets ${order.ticketIds.join(", ")}`,
      );
    }
    case "ticket.issued":
      return handled(
        event.data.ticket.id,
        `ticket ${event.data.ticket.id} issued, Quicode ${event.data.ticket.quicode}`,
      );
    case "ticket.cancelled":
      return handled(event.data.ticket.id, `ticket ${event.data.ticket.id} cancelled (${event.data.reason})`);
    case "payment.succeeded":
    case "payment.failed":
    case "payment.refunded":
      return handled(
        event.data.payment.id,
        `payment ${event.data.payment.id} ${event.data.payment.status}: ${money(event.data.payment.amount)}`,
      );
    case "entrance.admitted":
      return handled(
        event.data.scan.id,
        `ticket ${event.data.ticket.id} admitted at gate ${event.data.scan.gateId}`,
      );
    case "entrance.denied":
      return handled(
        event.data.scan.id,
        `scan denied at gate ${event.data.scan.gateId}: ${event.data.reasonText}`,
      );
    case "cart.created":
    case "cart.item_added":
    case "cart.customer_attached":
    case "cart.locked":
      return handled(
        event.data.cart.id,
        `cart ${event.data.cart.id} ${event.type.slice(5).replace("_", " ")}`,
      );
    default:
      // Other kinds (and kinds added after this SDK version) are acknowledged and ignored, never failed.
      return handled(null, `${event.type} acknowledged`);
  }
}
