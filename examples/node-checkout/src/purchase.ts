/**
 * The purchase flow of the service description: discover events, create a cart (idempotently), add an item by
 * article slug, attach the buyer, choose the card provider, check out.
 */

import { type components, type EntradaClient, paginate } from "@entrada/sdk";
import type { CheckoutExampleOptions } from "./options.ts";

type Schemas = components["schemas"];
export type Cart = Schemas["Cart"];
export type Order = Schemas["Order"];

/** A slot the example tried and could not get, with the problem type that said why. */
export interface SkippedSlot {
  eventId: string;
  slotId: string;
  /** The problem's slug, the last segment of its `type` URI: `sold-out` or `insufficient-capacity`. */
  reason: string;
}

/** An event of the catalogue with the slots and assortments `include=slots,assortments` embeds. */
export type ListedEvent = Schemas["EventListItem"];

export interface ReservedItem {
  event: ListedEvent;
  slot: Schemas["Slot"];
  cart: Cart;
}

export type CheckoutOutcome =
  | { status: "completed"; order: Order }
  | { status: "pending"; paymentId: string; redirectUrl: string }
  | { status: "payment-declined"; detail: string | undefined };

export function formatMoney(money: Schemas["Money"], locale: string): string {
  return new Intl.NumberFormat(locale, { style: "currency", currency: money.currency }).format(
    money.amount / 100,
  );
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Creates the cart. The idempotency key derives from the order reference: repeating the call (a retry, a crash
 * and restart) returns the same cart with `Idempotent-Replayed: true` instead of a second cart.
 */
export async function createCart(
  client: EntradaClient,
  options: CheckoutExampleOptions,
): Promise<{ cart: Cart; replayed: boolean }> {
  const idempotencyKey = `${options.orderReference}-cart`;
  const first = await client.shop.createCart.orThrow({ body: { currency: "CHF" }, idempotencyKey });
  // Shown on purpose: the same call again is answered from the server's idempotency store.
  const again = await client.shop.createCart.orThrow({ body: { currency: "CHF" }, idempotencyKey });
  if (again.data.id !== first.data.id) throw new Error("The API created a second cart for the same key");
  return { cart: again.data, replayed: again.meta.replayed };
}

/**
 * Walks the catalogue (filtered by date, venue and slug; cursor-paginated) with every event's slots and pricing
 * assortments embedded (`include=slots,assortments`: one request per page, no `getEvent` per event) and adds
 * `quantity` of the article to the first slot that takes them. Seats can go between reading availability and adding: a `sold-out` or
 * `insufficient-capacity` problem moves on to the next slot instead of failing.
 */
export async function reserve(
  client: EntradaClient,
  cart: Cart,
  options: CheckoutExampleOptions,
  skipped: SkippedSlot[],
): Promise<ReservedItem | undefined> {
  const log = options.log ?? console.log;
  const now = Date.now();
  const events = paginate(client.shop.listEvents, {
    params: {
      query: {
        dateFrom: isoDate(now),
        dateTo: isoDate(now + options.days * 86_400_000),
        ...(options.venueId ? { venueId: options.venueId } : {}),
        ...(options.eventSlug ? { slug: options.eventSlug } : {}),
        include: ["slots", "assortments"],
        limit: 10,
      },
    },
  });
  for await (const event of events) {
    if (!event.available) continue;
    const article = (event.pricingAssortments ?? [])
      .flatMap((assortment) => assortment.articles)
      .find((a) => a.slug === options.articleSlug);
    if (!article || article.maxPerOrder < options.quantity) continue;
    for (const slot of event.slots ?? []) {
      if (slot.available < options.quantity) continue;
      const added = await client.shop.addCartItem({
        params: { path: { id: cart.id } },
        body: { articleSlug: article.slug, slotId: slot.id, quantity: options.quantity },
      });
      if (!added.error) {
        log(
          `Added ${options.quantity} × ${article.name} for ${event.name} (${event.venue.name}, ${slot.startsAt})`,
        );
        return { event, slot, cart: added.data };
      }
      // Programs switch on the problem type (its slug), never on the localized title or detail.
      const error = added.error;
      if (error.kind === "problem") {
        switch (error.slug) {
          case "sold-out":
          case "insufficient-capacity":
            log(
              `  ${event.slug} at ${slot.startsAt}: ${error.slug} (${error.detail ?? error.title}), trying the next slot`,
            );
            skipped.push({ eventId: event.id, slotId: slot.id, reason: error.slug });
            continue;
        }
      }
      throw error;
    }
  }
  return undefined;
}

/** Attaches the buyer and chooses the payment provider of kind `card`. */
export async function prepareCheckout(
  client: EntradaClient,
  cart: Cart,
  options: CheckoutExampleOptions,
): Promise<Cart> {
  await client.shop.setCartCustomer.orThrow({ params: { path: { id: cart.id } }, body: options.customer });
  const { data: providers } = await client.shop.listCartPaymentProviders.orThrow({
    params: { path: { id: cart.id } },
  });
  const card = providers.items.find((provider) => provider.kind === "card");
  if (!card) throw new Error(`No card payment provider offered for cart ${cart.id}`);
  const { data } = await client.shop.setCartPaymentProvider.orThrow({
    params: { path: { id: cart.id } },
    body: { paymentProviderId: card.id },
  });
  return data;
}

/**
 * Locks the cart and pays. A declined card is an expected outcome, not a crash: the cart unlocks with its items,
 * so the buyer can try another card (with a new idempotency key: the key belongs to one payment attempt).
 */
export async function checkout(
  client: EntradaClient,
  cart: Cart,
  options: CheckoutExampleOptions,
  attempt = 1,
): Promise<CheckoutOutcome> {
  const result = await client.shop.checkoutCart({
    params: { path: { id: cart.id } },
    body: { paymentMethod: { cardNumber: options.cardNumber } },
    idempotencyKey: `${options.orderReference}-checkout-${attempt}`,
  });
  if (result.error) {
    const error = result.error;
    if (error.kind === "problem") {
      switch (error.slug) {
        case "payment-declined":
          return { status: "payment-declined", detail: error.detail };
        case "hold-expired":
        case "sold-out":
        case "cart-not-ready":
          // Worth a specific message to the buyer; this script just reports and stops.
          throw new Error(`Checkout refused (${error.type}): ${error.detail ?? error.title}`, {
            cause: error,
          });
      }
    }
    throw error;
  }
  const data = result.data;
  if (data.status === "pending") {
    return { status: "pending", paymentId: data.paymentId, redirectUrl: data.redirectUrl };
  }
  return { status: "completed", order: data.order };
}
