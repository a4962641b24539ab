import type { components } from "@entrada/openapi/schema";
import { msg } from "../../core/messages.ts";
/**
 * The shop's slice of a mock world: plain JSON, so snapshots are `structuredClone` and seeds are files — but for the
 * carts and the evicted ids, tables that serialize as plain objects (see `../shared/id-tables.ts`).
 */
import { positiveInt } from "../../core/seed-values.ts";
import type { Clock, LocalizedText, SeedData, World } from "../../core/types.ts";
import { IdSet, IdTable } from "../shared/id-tables.ts";
import { type Catalogue, type Currency, defaultCatalogue, localize } from "./catalogue.ts";
import { type DiscountRecord, seedVouchers, type VoucherRecord, type VoucherSeed } from "./voucher-codes.ts";

/** Caps and lifetime of orders, tickets and payments: defaults and bookkeeping (the rules are `order-cap.ts`). */
export const DEFAULT_MAX_ORDERS = 10_000;
export const DEFAULT_MAX_TICKETS = 50_000;
export const DEFAULT_MAX_PAYMENTS = 20_000;
/** A venue's IANA time zone when the catalogue names none (every seeded venue is Swiss). */
export const DEFAULT_TIME_ZONE = "Europe/Zurich";
/** 30 days. */
export const DEFAULT_ORDER_RETENTION_SECONDS = 2_592_000;
/** Why a record is gone: its kind's cap, its lifetime, or its cart was dropped. */
export type DropReason = "cap" | "lifetime" | "cart";

export interface OrderCapState {
  orderQueue: string[];
  orderHead: number;
  orderCount: number;
  ticketCount: number;
  paymentQueue: string[];
  paymentHead: number;
  paymentCount: number;
  /** Dropped order, ticket and payment ids with the reason, in drop order (bounded). */
  dropped: Record<string, DropReason>;
  droppedQueue: string[];
  droppedHead: number;
}

/** Empty bookkeeping for a new shop state. */
export function emptyOrderCap(): OrderCapState {
  return {
    orderQueue: [],
    orderHead: 0,
    orderCount: 0,
    ticketCount: 0,
    paymentQueue: [],
    paymentHead: 0,
    paymentCount: 0,
    dropped: {},
    droppedQueue: [],
    droppedHead: 0,
  };
}

export type { Currency } from "./catalogue.ts";

export interface VenueRecord {
  id: string;
  name: LocalizedText;
  city: LocalizedText;
  timeZone: string;
}

export interface SlotRecord {
  id: string;
  eventId: string;
  startsAt: string;
  endsAt: string;
  capacity: number;
  sold: number;
  /** Seats held by open or locked carts (released when a hold expires). */
  held: number;
}

export interface ArticleRecord {
  id: string;
  slug: string;
  eventId: string;
  assortmentId: string;
  name: LocalizedText;
  description: LocalizedText;
  price: Partial<Record<Currency, number>>;
  maxPerOrder: number;
}

export interface AssortmentRecord {
  id: string;
  eventId: string;
  name: LocalizedText;
  articleIds: string[];
}

export interface EventRecord {
  id: string;
  slug: string;
  venueId: string;
  name: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
  /** The seed's cover image URL; null: the assets section's banner for this event (see views.ts). */
  imageUrl: string | null;
  /** First slot start and last slot end (static, for readers such as the entrance and BI sections). */
  startsAt: string;
  endsAt: string;
  /** Static slot facts; the live counters (sold, held) are in `ShopState.slots`. */
  slots: Array<{ id: string; startsAt: string; endsAt: string; capacity: number }>;
  slotIds: string[];
  assortmentIds: string[];
  surveyId: string | null;
}

/** The buyer as the contract defines it (stored as sent). */
export type Customer = components["schemas"]["Customer"];
/** The visitor's analytics ids a checkout handed over (`CheckoutRequest.analytics`). */
export type AnalyticsIds = components["schemas"]["AnalyticsIds"];

export interface ItemRecord {
  id: string;
  articleId: string;
  slotId: string;
  eventId: string;
  quantity: number;
  /** Seats of this item currently held in its slot (0 after the hold lapsed). */
  held: number;
}

export type CartStatus = "open" | "locked" | "completed" | "expired";

export interface CartRecord {
  id: string;
  status: CartStatus;
  currency: Currency;
  items: ItemRecord[];
  customer: Customer | null;
  paymentProviderId: string | null;
  holdExpiresAt: number | null;
  orderId: string | null;
  /** The client that created it; a session token sees only its own session's carts. */
  clientId: string;
  sessionId: string | null;
  /** The pending payment while the cart is locked for a redirect provider. */
  paymentId: string | null;
  /** The analytics ids of the latest checkout (kept for the order it pays); absent when it carried none. */
  analytics?: AnalyticsIds;
  /** The applied voucher code (normalized), if any. */
  voucherCode?: string | null;
  /** Whether the cart holds one of the code's uses (see `vouchers.ts`). */
  voucherHeld?: boolean;
  createdAt: number;
  updatedAt: number;
}

export interface PaymentRecord {
  id: string;
  cartId: string;
  providerId: string;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  orderId: string | null;
  returnUrl: string | null;
  amount: number;
  currency: Currency;
  /** RFC 3339. */
  createdAt: string;
  expiresAt: number;
  /** RFC 3339. */
  completedAt: string | null;
}

export interface TicketRecord {
  id: string;
  orderId: string;
  eventId: string;
  slotId: string;
  articleId: string;
  articleName: LocalizedText;
  holderName: string;
  quicode: string;
  status: "valid" | "used" | "cancelled";
}

export interface OrderRecord {
  id: string;
  cartId: string;
  customer: Customer;
  items: ItemRecord[];
  currency: Currency;
  /** What was charged (the lines' sum minus the discounts). */
  total: number;
  /** The lines' sum and the discount lines (absent in snapshots from before vouchers: `total`, none). */
  subtotal?: number;
  discounts?: DiscountRecord[];
  /** RFC 3339. */
  createdAt: string;
  ticketIds: string[];
  paymentId: string;
  culture: string;
  /** The analytics ids of the checkout that paid (echoed in `Order.analytics` and `cart.completed`). */
  analytics?: AnalyticsIds;
}

export interface PaymentProviderRecord {
  id: string;
  name: LocalizedText;
  kind: "card" | "redirect";
}

export interface ShopState {
  config: {
    currencies: Currency[];
    defaultCurrency: Currency;
    holdDurationSeconds: number;
    /** Lifetime of session tokens for the embedded shop. */
    sessionTtlSeconds: number;
    /** How long a redirect payment may stay pending. */
    paymentTtlSeconds: number;
    /** Carts untouched this long become "expired". */
    cartTtlSeconds: number;
    /**
     * Abandoned carts (never checked out: open or expired) are dropped, with their holds, this long after they
     * expired, i.e. `cartTtlSeconds + cartRetentionSeconds` after their last change on the mock clock.
     */
    cartRetentionSeconds: number;
    /** Most carts kept; the oldest are evicted first beyond it (see `cart-cap.ts`). Optional for old snapshots. */
    maxCarts?: number;
    /** Caps and lifetime of orders, tickets and payments (see `order-cap.ts`). Optional for old snapshots. */
    maxOrders?: number;
    maxTickets?: number;
    maxPayments?: number;
    orderRetentionSeconds?: number;
    paymentProviders: PaymentProviderRecord[];
  };
  venues: Record<string, VenueRecord>;
  venueOrder: string[];
  events: Record<string, EventRecord>;
  /** Event ids sorted by first slot start, then id (the discovery order). */
  eventOrder: string[];
  slots: Record<string, SlotRecord>;
  assortments: Record<string, AssortmentRecord>;
  articles: Record<string, ArticleRecord>;
  /** Carts by id (an `IdTable`; a plain object in a snapshot, made a table again by `shopSlice`). */
  carts: IdTable<CartRecord>;
  payments: Record<string, PaymentRecord>;
  orders: Record<string, OrderRecord>;
  tickets: Record<string, TicketRecord>;
  /** Hold expiries in creation order; swept lazily on each request. */
  holdQueue: Array<{ cartId: string; expiresAt: number }>;
  holdQueueHead: number;
  /**
   * Carts in creation order with the time they are next due for the retention check (see `sweepCarts`). Optional
   * so snapshots taken before it existed still restore.
   */
  retentionQueue?: Array<{ cartId: string; dueAt: number }>;
  retentionQueueHead?: number;
  /** Cart ids in creation order for the cap's eviction (see `cart-cap.ts`), with its head and the live count. */
  cartOrder?: string[];
  cartOrderHead?: number;
  cartCount?: number;
  /** Ids of carts the cap evicted (at most `maxCarts`, oldest forgotten first), so reads can say so. */
  evictedCarts?: IdSet;
  evictedOrder?: string[];
  evictedHead?: number;
  /** Bookkeeping of the order, ticket and payment caps (see `order-cap.ts`); created on first use. */
  orderCap?: OrderCapState;
  /**
   * The shop sessions tokens were issued for (`createSession`), by session id. Insertion order is renewal order
   * (see there). Optional so snapshots taken before it existed still restore.
   */
  sessions?: Record<string, ShopSessionRecord>;
  /** Voucher codes by normalized code, with their uses (see `vouchers.ts`). Optional for old snapshots. */
  vouchers?: Record<string, VoucherRecord>;
}

/**
 * A shop session: which client created it (only that client may renew it), its allowed origins (kept when a
 * renewal omits them) and until when it can be renewed — as long as its carts may still exist (last token's
 * expiry + `cartTtlSeconds` + `cartRetentionSeconds`, ms on the mock clock).
 */
export interface ShopSessionRecord {
  clientId: string;
  allowedOrigins: string[];
  renewableUntil: number;
}

/** What `seed.shop` may contain (every field optional). */
export interface ShopSeed {
  catalogue?: Catalogue;
  /** Overrides every slot's capacity (handy for capacity tests and benchmarks). */
  slotCapacity?: number;
  holdDurationSeconds?: number;
  sessionTtlSeconds?: number;
  paymentTtlSeconds?: number;
  cartTtlSeconds?: number;
  /** How long abandoned carts are kept after they expired (default 86 400). */
  cartRetentionSeconds?: number;
  /** Most carts a session keeps (default 10 000); creating one more evicts the oldest. */
  maxCarts?: number;
  /** Most orders a session keeps (default 10 000); beyond it the oldest go with their tickets and payment. */
  maxOrders?: number;
  /** Most tickets a session keeps (default 50 000); whole orders go, oldest first. */
  maxTickets?: number;
  /** Most payments a session keeps (default 20 000), oldest first. */
  maxPayments?: number;
  /** How long orders and settled payments are kept after their creation (default 2 592 000: 30 days). */
  orderRetentionSeconds?: number;
  currencies?: Currency[];
  /** The voucher codes (replaces the built-in list of `vouchers.seed.json`; see the README). */
  vouchers?: VoucherSeed[];
}

export const PAYMENT_PROVIDERS: PaymentProviderRecord[] = [
  {
    id: "card",
    name: msg("shop.state.credit-card-test"),
    kind: "card",
  },
  {
    id: "redirect",
    name: msg("shop.state.hosted-payment-page-test"),
    kind: "redirect",
  },
];

export function initialShopState(seed: SeedData, clock: Clock): ShopState {
  const shopSeed = (seed.shop ?? {}) as ShopSeed;
  const catalogue = shopSeed.catalogue ?? defaultCatalogue(clock.now());
  const currencies =
    Array.isArray(shopSeed.currencies) && shopSeed.currencies.length > 0
      ? shopSeed.currencies
      : (["CHF", "EUR"] as Currency[]);
  const state: ShopState = {
    config: {
      currencies,
      defaultCurrency: currencies[0] ?? "CHF",
      holdDurationSeconds: positiveInt(shopSeed.holdDurationSeconds, 600),
      sessionTtlSeconds: positiveInt(shopSeed.sessionTtlSeconds, 900),
      paymentTtlSeconds: positiveInt(shopSeed.paymentTtlSeconds, 1800),
      cartTtlSeconds: positiveInt(shopSeed.cartTtlSeconds, 86_400),
      cartRetentionSeconds: positiveInt(shopSeed.cartRetentionSeconds, 86_400),
      maxCarts: positiveInt(shopSeed.maxCarts, 10_000),
      maxOrders: positiveInt(shopSeed.maxOrders, DEFAULT_MAX_ORDERS),
      maxTickets: positiveInt(shopSeed.maxTickets, DEFAULT_MAX_TICKETS),
      maxPayments: positiveInt(shopSeed.maxPayments, DEFAULT_MAX_PAYMENTS),
      orderRetentionSeconds: positiveInt(shopSeed.orderRetentionSeconds, DEFAULT_ORDER_RETENTION_SECONDS),
      paymentProviders: PAYMENT_PROVIDERS,
    },
    venues: {},
    venueOrder: [],
    events: {},
    eventOrder: [],
    slots: {},
    assortments: {},
    articles: {},
    carts: new IdTable<CartRecord>(),
    payments: {},
    orders: {},
    tickets: {},
    holdQueue: [],
    holdQueueHead: 0,
    retentionQueue: [],
    retentionQueueHead: 0,
    sessions: {},
    orderCap: emptyOrderCap(),
    vouchers: seedVouchers(shopSeed.vouchers),
  };
  for (const venue of catalogue.venues) {
    state.venues[venue.id] = {
      id: venue.id,
      name: localize(venue.name),
      city: localize(venue.city),
      timeZone: venue.timeZone ?? DEFAULT_TIME_ZONE,
    };
    state.venueOrder.push(venue.id);
  }
  for (const event of catalogue.events) {
    const record: EventRecord = {
      id: event.id,
      slug: event.slug,
      venueId: event.venueId,
      name: localize(event.name),
      summary: localize(event.summary),
      description: localize(event.description),
      imageUrl: event.imageUrl ?? null,
      startsAt: event.slots[0]?.startsAt ?? "",
      endsAt: event.slots[event.slots.length - 1]?.endsAt ?? "",
      slots: [],
      slotIds: [],
      assortmentIds: [],
      surveyId: event.surveyId ?? null,
    };
    for (const slot of event.slots) {
      const capacity = shopSeed.slotCapacity ?? slot.capacity;
      state.slots[slot.id] = {
        id: slot.id,
        eventId: event.id,
        startsAt: slot.startsAt,
        endsAt: slot.endsAt,
        capacity,
        sold: Math.min(slot.sold ?? 0, capacity),
        held: 0,
      };
      record.slotIds.push(slot.id);
      record.slots.push({ id: slot.id, startsAt: slot.startsAt, endsAt: slot.endsAt, capacity });
    }
    for (const assortment of event.pricingAssortments) {
      state.assortments[assortment.id] = {
        id: assortment.id,
        eventId: event.id,
        name: localize(assortment.name),
        articleIds: assortment.articles.map((a) => a.id),
      };
      record.assortmentIds.push(assortment.id);
      for (const article of assortment.articles) {
        state.articles[article.id] = {
          id: article.id,
          slug: article.slug,
          eventId: event.id,
          assortmentId: assortment.id,
          name: localize(article.name),
          description: localize(article.description),
          price: article.price,
          maxPerOrder: article.maxPerOrder,
        };
      }
    }
    state.events[event.id] = record;
  }
  state.eventOrder = Object.values(state.events)
    .sort((a, b) => {
      const sa = state.slots[a.slotIds[0] ?? ""]?.startsAt ?? "";
      const sb = state.slots[b.slotIds[0] ?? ""]?.startsAt ?? "";
      return sa < sb ? -1 : sa > sb ? 1 : a.id < b.id ? -1 : 1;
    })
    .map((e) => e.id);
  return state;
}

/** The world's shop slice; the first call after a restore from JSON turns its cart tables back into tables. */
export function shopSlice(world: World): ShopState {
  const state = world.shop as ShopState;
  if (!(state.carts instanceof IdTable)) state.carts = IdTable.of(state.carts);
  if (state.evictedCarts !== undefined && !(state.evictedCarts instanceof IdSet)) {
    state.evictedCarts = IdSet.of(state.evictedCarts);
  }
  return state;
}
