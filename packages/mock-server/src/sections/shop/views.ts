/** Localized representations of shop records, exactly as the contract's schemas describe them. */
import { pickText } from "../../core/culture.ts";
import { isoSeconds } from "../../core/iso-time.ts";
import { JsonText } from "../../core/json-text.ts";
import type { Culture, OperationContext } from "../../core/types.ts";
import { eventBannerId } from "../assets/catalogue.ts";
import { availableSeats } from "./holds.ts";
import type {
  ArticleRecord,
  CartRecord,
  Currency,
  EventRecord,
  ItemRecord,
  OrderRecord,
  PaymentRecord,
  ShopState,
  TicketRecord,
} from "./state.ts";
import { DEFAULT_TIME_ZONE } from "./state.ts";
import { type DiscountRecord, pricing } from "./vouchers.ts";

let lastMs = Number.NaN;
let lastIso = "";

/** RFC 3339 in UTC to the second; the last one is kept (a view formats the same instants again and again). */
export function iso(ms: number): string {
  if (ms === lastMs) return lastIso;
  lastIso = isoSeconds(ms);
  lastMs = ms;
  return lastIso;
}

/** Absolute link to a mock-served resource, carrying the mock session when it is not the default. */
export function mockLink(
  ctx: Pick<OperationContext, "url" | "mockSession" | "baseUrl">,
  path: string,
): string {
  const session =
    ctx.mockSession && ctx.mockSession !== "default"
      ? `?mockSession=${encodeURIComponent(ctx.mockSession)}`
      : "";
  return `${ctx.baseUrl ?? ctx.url.origin}/__mock${path}${session}`;
}

export function venueView(state: ShopState, venueId: string, culture: Culture) {
  const venue = state.venues[venueId];
  return {
    id: venueId,
    name: venue ? pickText(venue.name, culture) : "",
    city: venue ? pickText(venue.city, culture) : "",
    timeZone: venue?.timeZone ?? DEFAULT_TIME_ZONE,
  };
}

function priceOf(article: ArticleRecord, currency: Currency): number | undefined {
  return article.price[currency];
}

/** Per event record, the views built for one culture and currency (static once seeded: names, prices). */
type PerCulture<T> = WeakMap<EventRecord, Map<string, T>>;

/** The view of `event` for `culture` and `currency` from `cache`, built by `build` on first use. */
function cachedView<T>(
  cache: PerCulture<T>,
  event: EventRecord,
  culture: Culture,
  currency: Currency,
  build: () => T,
): T {
  let byKey = cache.get(event);
  if (!byKey) {
    byKey = new Map();
    cache.set(event, byKey);
  }
  const key = `${culture}|${currency}`;
  let view = byKey.get(key);
  if (view === undefined) {
    view = build();
    byKey.set(key, view);
  }
  return view;
}

/** The static (localized) part of an event summary, cached per record, culture and currency. */
const summaryCache: PerCulture<ReturnType<typeof buildSummary>> = new WeakMap();

/**
 * The event's cover image: the seed's URL, else the assets section's banner for the event on this mock
 * (`getImage` is public, so the shop's `<img src>` loads it without a token and without a network).
 */
export function eventImageUrl(event: EventRecord, baseUrl: string): string {
  return event.imageUrl ?? `${baseUrl}/assets/v1/images/${eventBannerId(event.id)}`;
}

function buildSummary(state: ShopState, event: EventRecord, culture: Culture, currency: Currency) {
  let priceFrom: number | null = null;
  for (const assortmentId of event.assortmentIds) {
    for (const articleId of state.assortments[assortmentId]?.articleIds ?? []) {
      const article = state.articles[articleId];
      const price = article ? priceOf(article, currency) : undefined;
      if (price !== undefined && (priceFrom === null || price < priceFrom)) priceFrom = price;
    }
  }
  const first = event.slots[0];
  const last = event.slots[event.slots.length - 1];
  return {
    id: event.id,
    slug: event.slug,
    name: pickText(event.name, culture),
    summary: pickText(event.summary, culture),
    venue: venueView(state, event.venueId, culture),
    startsAt: first?.startsAt ?? "1970-01-01T00:00:00Z",
    endsAt: last?.endsAt ?? first?.endsAt ?? "1970-01-01T00:00:00Z",
    priceFrom: { amount: priceFrom ?? 0, currency },
  };
}

export function eventSummary(
  state: ShopState,
  event: EventRecord,
  culture: Culture,
  currency: Currency,
  baseUrl: string,
) {
  const fixed = cachedView(summaryCache, event, culture, currency, () =>
    buildSummary(state, event, culture, currency),
  );
  let available = false;
  for (const id of event.slotIds) {
    const slot = state.slots[id];
    if (slot && availableSeats(slot) > 0) {
      available = true;
      break;
    }
  }
  // The image URL depends on where the mock is served (origin and base path), so it is not cached.
  return { ...fixed, imageUrl: eventImageUrl(event, baseUrl), available };
}

/** Whether any slot of the event has a seat left. */
function eventAvailable(state: ShopState, event: EventRecord): boolean {
  for (const id of event.slotIds) {
    const slot = state.slots[id];
    if (slot && availableSeats(slot) > 0) return true;
  }
  return false;
}

interface CachedPage {
  culture: Culture;
  currency: Currency;
  baseUrl: string;
  more: boolean;
  events: EventRecord[];
  available: boolean[];
  json: JsonText<{ items: ReturnType<typeof eventSummary>[]; nextCursor: string | null }>;
}

/** A shop state's kept pages by key, and the page answered last (looked at first: no key to build and hash). */
interface KeptPages {
  byKey: Map<string, CachedPage>;
  last: CachedPage | null;
}

/** Most pages kept per shop state (pages differ by culture, filters, cursor and the host they are served for). */
const MAX_PAGES = 64;
const pageCache = new WeakMap<ShopState, KeptPages>();

/**
 * The cursor of the page after `eventId` (opaque to clients: base64url of `{"after": id}`); `listEvents` decodes it.
 */
export function eventCursor(eventId: string): string {
  return btoa(JSON.stringify({ after: eventId }))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/**
 * A page of event summaries, serialized, with the cursor after its last event when `more` follow. The text is kept
 * per shop state, culture, currency, host and cursor, and reused while the page lists the same event records with
 * the same availability (checked on every request, so a sale, a lapsed hold or a reseeded catalogue renders anew);
 * at most `MAX_PAGES` are kept, the oldest going first; the page answered last is looked at first (a client polling one
 * page builds no key). A kept page is answered without rendering or allocating.
 */
export function eventPage(
  state: ShopState,
  events: EventRecord[],
  more: boolean,
  culture: Culture,
  currency: Currency,
  baseUrl: string,
): CachedPage["json"] {
  let pages = pageCache.get(state);
  if (!pages) {
    pages = { byKey: new Map(), last: null };
    pageCache.set(state, pages);
  }
  const last = pages.last;
  if (
    last !== null &&
    last.culture === culture &&
    last.currency === currency &&
    last.more === more &&
    last.baseUrl === baseUrl &&
    sameListing(state, last, events)
  )
    return last.json;
  const key = `${culture}|${currency}|${baseUrl}|${events[0]?.id ?? ""}|${events.length}|${more}`;
  const hit = pages.byKey.get(key);
  if (hit && sameListing(state, hit, events)) {
    pages.last = hit;
    return hit.json;
  }
  const lastEvent = events[events.length - 1];
  const nextCursor = more && lastEvent ? eventCursor(lastEvent.id) : null;
  const items = events.map((event) => eventSummary(state, event, culture, currency, baseUrl));
  const json = JsonText.of({ items, nextCursor });
  const available = events.map((event) => eventAvailable(state, event));
  const page: CachedPage = { culture, currency, baseUrl, more, events, available, json };
  pages.byKey.delete(key);
  pages.byKey.set(key, page);
  if (pages.byKey.size > MAX_PAGES) pages.byKey.delete(pages.byKey.keys().next().value as string);
  pages.last = page;
  return json;
}

/** Whether a kept page lists exactly these event records, each as available as when it was rendered. */
function sameListing(state: ShopState, page: CachedPage, events: EventRecord[]): boolean {
  if (page.events.length !== events.length) return false;
  for (let i = 0; i < events.length; i++) {
    const event = events[i] as EventRecord;
    if (page.events[i] !== event || page.available[i] !== eventAvailable(state, event)) return false;
  }
  return true;
}

/** The event's slots with their live availability (seats change with every hold and sale, so never cached). */
export function slotViews(state: ShopState, event: EventRecord) {
  const slots = [];
  for (const id of event.slotIds) {
    const s = state.slots[id];
    if (s)
      slots.push({
        id: s.id,
        startsAt: s.startsAt,
        endsAt: s.endsAt,
        capacity: s.capacity,
        available: availableSeats(s),
      });
  }
  return slots;
}

function buildAssortments(state: ShopState, event: EventRecord, culture: Culture, currency: Currency) {
  return event.assortmentIds
    .map((id) => state.assortments[id])
    .filter((a) => a !== undefined)
    .map((a) => ({
      id: a.id,
      name: pickText(a.name, culture),
      articles: a.articleIds
        .map((id) => state.articles[id])
        .filter((x): x is ArticleRecord => x !== undefined && priceOf(x, currency) !== undefined)
        .map((x) => ({
          id: x.id,
          slug: x.slug,
          name: pickText(x.name, culture),
          description: pickText(x.description, culture),
          price: { amount: priceOf(x, currency) ?? 0, currency },
          maxPerOrder: x.maxPerOrder,
        })),
    }));
}

/** The localized assortments (static per culture and currency, like the summary), cached per record. */
const assortmentCache: PerCulture<ReturnType<typeof buildAssortments>> = new WeakMap();

/**
 * The event's pricing assortments with their articles in one culture and currency. Built once per record,
 * culture and currency (a catalogue page with `include=assortments` renders no article twice); read-only.
 */
export function assortmentViews(state: ShopState, event: EventRecord, culture: Culture, currency: Currency) {
  return cachedView(assortmentCache, event, culture, currency, () =>
    buildAssortments(state, event, culture, currency),
  );
}

export function eventDetail(
  state: ShopState,
  event: EventRecord,
  culture: Culture,
  currency: Currency,
  baseUrl: string,
) {
  return {
    ...eventSummary(state, event, culture, currency, baseUrl),
    description: pickText(event.description, culture),
    slots: slotViews(state, event),
    pricingAssortments: assortmentViews(state, event, culture, currency),
    surveyId: event.surveyId,
  };
}

export function itemView(state: ShopState, item: ItemRecord, currency: Currency, culture: Culture) {
  const article = state.articles[item.articleId];
  const event = state.events[item.eventId];
  const unit = article?.price[currency] ?? 0;
  return {
    id: item.id,
    articleId: item.articleId,
    articleSlug: article?.slug ?? "unknown",
    eventId: item.eventId,
    slotId: item.slotId,
    name: `${event ? pickText(event.name, culture) : ""} – ${article ? pickText(article.name, culture) : ""}`,
    quantity: item.quantity,
    unitPrice: { amount: unit, currency },
    lineTotal: { amount: unit * item.quantity, currency },
  };
}

/** What the cart's checkout charges: the lines' sum minus the voucher's discount. */
export function cartTotal(state: ShopState, cart: CartRecord): number {
  return pricing(state, cart).total;
}

export function discountView(line: DiscountRecord, currency: Currency, culture: Culture) {
  return {
    code: line.code,
    kind: line.kind,
    name: pickText(line.name, culture),
    amount: { amount: line.amount, currency },
  };
}

export function cartView(state: ShopState, cart: CartRecord, culture: Culture) {
  const prices = pricing(state, cart);
  return {
    id: cart.id,
    status: cart.status,
    currency: cart.currency,
    items: cart.items.map((item) => itemView(state, item, cart.currency, culture)),
    customer: cart.customer,
    paymentProviderId: cart.paymentProviderId,
    subtotal: { amount: prices.subtotal, currency: cart.currency },
    discounts: prices.discounts.map((line) => discountView(line, cart.currency, culture)),
    total: { amount: prices.total, currency: cart.currency },
    holdExpiresAt: cart.holdExpiresAt === null ? null : iso(cart.holdExpiresAt),
    orderId: cart.orderId,
    createdAt: iso(cart.createdAt),
    updatedAt: iso(cart.updatedAt),
  };
}

export function ticketView(
  ctx: Pick<OperationContext, "url" | "mockSession" | "baseUrl" | "signedUrl">,
  ticket: TicketRecord,
) {
  return {
    id: ticket.id,
    orderId: ticket.orderId,
    eventId: ticket.eventId,
    slotId: ticket.slotId,
    articleId: ticket.articleId,
    holderName: ticket.holderName,
    quicode: ticket.quicode,
    // The contract's asset operation as a signed, expiring link (opens without a bearer token).
    ticketUrl: ctx.signedUrl(`/assets/v1/tickets/${ticket.id}.pdf`),
    status: ticket.status,
  };
}

export function orderView(
  state: ShopState,
  order: OrderRecord,
  ctx: Pick<OperationContext, "url" | "mockSession" | "baseUrl" | "culture" | "signedUrl">,
) {
  return {
    id: order.id,
    cartId: order.cartId,
    status: "paid" as const,
    customer: order.customer,
    items: order.items.map((item) => itemView(state, item, order.currency, ctx.culture)),
    subtotal: { amount: order.subtotal ?? order.total, currency: order.currency },
    discounts: (order.discounts ?? []).map((line) => discountView(line, order.currency, ctx.culture)),
    total: { amount: order.total, currency: order.currency },
    createdAt: order.createdAt,
    tickets: order.ticketIds
      .map((id) => state.tickets[id])
      .filter((x): x is TicketRecord => x !== undefined)
      .map((x) => ticketView(ctx, x)),
    receiptUrl: ctx.signedUrl(`/assets/v1/orders/${order.id}/receipt`),
    ...(order.analytics ? { analytics: { ...order.analytics } } : {}),
  };
}

export function paymentView(payment: PaymentRecord) {
  return { id: payment.id, cartId: payment.cartId, status: payment.status, orderId: payment.orderId };
}
