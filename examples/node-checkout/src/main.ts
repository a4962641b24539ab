/**
 * A backend integrator's purchase, end to end:
 *   token → discovery → idempotent cart → item by slug → buyer → card provider → checkout (Quicodes, ticket links)
 *   → a session token for the embedded shop → an entrance scan of one Quicode (admitted, then denied as used).
 *
 * Run it: `pnpm start` (against the local mock, `pnpm mock` in another terminal), or with ENTRADA_BASE_URL,
 * ENTRADA_CLIENT_ID and ENTRADA_CLIENT_SECRET against the real service.
 */

import { createClient, customLocale, type EntradaClient, EntradaError } from "@entrada/sdk";
import { findEntryGate, type ScanResult, scan, setMockClock } from "./entrance.ts";
import { type CheckoutExampleOptions, optionsFromEnv } from "./options.ts";
import {
  checkout,
  createCart,
  formatMoney,
  type Order,
  prepareCheckout,
  reserve,
  type SkippedSlot,
} from "./purchase.ts";

export type { CheckoutExampleOptions } from "./options.ts";
export { optionsFromEnv } from "./options.ts";

export interface PurchaseSummary {
  eventId: string;
  slotId: string;
  cartId: string;
  /** The second `createCart` with the same key was answered from the idempotency store. */
  cartReplayed: boolean;
  skipped: SkippedSlot[];
}

export type CheckoutExampleResult =
  | (PurchaseSummary & {
      status: "completed";
      order: Order;
      /** The first ticket's PDF, downloaded through the API. */
      ticketPdf: { ticketId: string; bytes: number; type: string };
      session: { expiresAt: string; allowedOrigins: string[] };
      scans: ScanResult[];
    })
  | (PurchaseSummary & { status: "payment-declined"; detail: string | undefined })
  | (PurchaseSummary & { status: "pending"; paymentId: string; redirectUrl: string })
  | { status: "nothing-available"; cartId: string; skipped: SkippedSlot[] };

function clients(options: CheckoutExampleOptions): { shop: EntradaClient; terp: EntradaClient } {
  const common = {
    baseUrl: options.baseUrl,
    // A culture from the environment: any language-REGION tag, validated (the `Locale` type's escape hatch).
    locale: customLocale(options.locale),
    userAgent: "entrada-example-node-checkout",
    ...(options.fetch ? { fetch: options.fetch } : {}),
  };
  return {
    shop: createClient({
      ...common,
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: "Shop",
    }),
    terp: createClient({
      ...common,
      clientId: options.terpClientId ?? options.clientId,
      clientSecret: options.terpClientSecret ?? options.clientSecret,
      scope: "TERP",
    }),
  };
}

export async function main(options: CheckoutExampleOptions): Promise<CheckoutExampleResult> {
  const log = options.log ?? console.log;
  const { shop, terp } = clients(options);

  const { cart: emptyCart, replayed } = await createCart(shop, options);
  log(`Cart ${emptyCart.id} (created again with the same Idempotency-Key: replayed=${replayed}, same cart)`);

  const skipped: SkippedSlot[] = [];
  const reserved = await reserve(shop, emptyCart, options, skipped);
  if (!reserved) {
    log(`No event in the next ${options.days} days offers ${options.quantity} × "${options.articleSlug}".`);
    return { status: "nothing-available", cartId: emptyCart.id, skipped };
  }
  const summary: PurchaseSummary = {
    eventId: reserved.event.id,
    slotId: reserved.slot.id,
    cartId: reserved.cart.id,
    cartReplayed: replayed,
    skipped,
  };

  const ready = await prepareCheckout(shop, reserved.cart, options);
  log(
    `Buyer ${options.customer.email}, provider ${ready.paymentProviderId}, total ${formatMoney(ready.total, options.locale)}`,
  );

  const outcome = await checkout(shop, ready, options);
  if (outcome.status === "payment-declined") {
    log(
      `Payment declined (${outcome.detail ?? "no detail"}); cart ${summary.cartId} keeps its items for another card.`,
    );
    return { ...summary, ...outcome };
  }
  if (outcome.status === "pending") {
    log(`Payment pending: send the buyer to ${outcome.redirectUrl}`);
    return { ...summary, ...outcome };
  }
  const { order } = outcome;
  log(`Order ${order.id} paid, ${order.tickets.length} ticket(s). Receipt: ${order.receiptUrl}`);
  for (const ticket of order.tickets) {
    log(`  ${ticket.holderName}: Quicode ${ticket.quicode}  ticket ${ticket.ticketUrl}`);
  }

  // Ticket links are API resources (bearer token): fetch the PDF server-side to e-mail or store it.
  const first = order.tickets[0];
  if (!first) throw new Error(`Order ${order.id} carries no tickets`);
  const { data: pdf } = await shop.assets.getTicketPdf.orThrow({ params: { path: { ticketId: first.id } } });
  log(`Ticket ${first.id} as PDF: ${pdf.size} bytes (${pdf.type})`);

  // The embedded shop never sees the client secret: this backend creates a short-lived session token for it.
  const { data: session } = await shop.sessions.create.orThrow({ allowedOrigins: [options.shopOrigin] });
  log(`Session token for the embedded shop on ${options.shopOrigin}, valid until ${session.expiresAt}`);

  const scans: ScanResult[] = [];
  if (options.mockClock) {
    // Doors open two hours before the slot; stand at the door half an hour before it starts.
    const doors = new Date(Date.parse(reserved.slot.startsAt) - 30 * 60_000).toISOString();
    await setMockClock(options.baseUrl, { set: doors }, options.fetch);
    log(`(mock) clock set to ${doors}`);
  }
  try {
    const gate = await findEntryGate(terp, reserved.event.id);
    for (let attempt = 1; attempt <= 2; attempt++) {
      const result = await scan(terp, gate.id, first.quicode, "example-scanner-1");
      scans.push(result);
      log(
        `Scan ${attempt} at ${gate.name}: ${result.result}${result.reason ? ` (${result.reason}: ${result.reasonText})` : ""}`,
      );
    }
  } finally {
    if (options.mockClock) await setMockClock(options.baseUrl, { reset: true }, options.fetch);
  }

  return {
    ...summary,
    status: "completed",
    order,
    ticketPdf: { ticketId: first.id, bytes: pdf.size, type: pdf.type },
    session: { expiresAt: session.expiresAt, allowedOrigins: session.allowedOrigins },
    scans,
  };
}

if (import.meta.main) {
  try {
    const result = await main(optionsFromEnv());
    process.exitCode = result.status === "completed" ? 0 : 1;
  } catch (error) {
    if (error instanceof EntradaError) {
      // Quote the log id in a support request: it names the exact call on the server.
      console.error(
        `${error.name} (${error.kind}, status ${error.status ?? "none"}, log id ${error.logId ?? "none"}): ${error.message}`,
      );
    } else {
      console.error(error);
    }
    process.exitCode = 1;
  }
}
