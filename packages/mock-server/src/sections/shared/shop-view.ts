import type { LocalizedText, OperationContext, World } from "../../core/types.ts";
import { DEFAULT_TIME_ZONE } from "../shop/state.ts";

/**
 * Read-only views of the shop module's slice (`world.shop`), the only place the entrance, BI and assets modules
 * learn about venues, events and sold tickets. Kept in one file so a change of the shop's state shape is a change
 * here only.
 */

export interface ShopVenueView {
  id: string;
  name: LocalizedText | string;
  city: LocalizedText | string | null;
  capacity: number | null;
}

export interface ShopSlotView {
  id: string;
  startsAt: string;
  endsAt: string;
  capacity: number | null;
}

export interface ShopEventView {
  id: string;
  slug: string | null;
  venueId: string | null;
  name: LocalizedText | string;
  startsAt: string | null;
  endsAt: string | null;
  slots: ShopSlotView[];
  imageUrl: string | null;
  surveyId: string | null;
}

export interface ShopTicketView {
  id: string;
  orderId: string;
  eventId: string;
  slotId: string | null;
  articleId: string | null;
  articleName: LocalizedText | string | null;
  holderName: string | null;
  quicode: string;
  status: "valid" | "used" | "cancelled";
  /** The shop's own record, for writing the entrance status back. */
  record: Record<string, unknown>;
}

export interface ShopOrderView {
  id: string;
  cartId: string | null;
  status: string;
  createdAt: string;
  currency: string;
  totalMinor: number;
  /** What the order's vouchers took off (minor units), and their codes. */
  discountMinor: number;
  voucherCodes: string[];
  customerEmail: string | null;
  customerName: string | null;
  culture: string | null;
  tickets: ShopTicketView[];
  record: Record<string, unknown>;
}

export interface ShopPaymentView {
  id: string;
  cartId: string | null;
  orderId: string | null;
  providerId: string | null;
  status: string;
  amountMinor: number;
  currency: string;
  createdAt: string;
  completedAt: string | null;
}

type Obj = Record<string, unknown>;

function values(x: unknown): Obj[] {
  if (Array.isArray(x)) return x.filter((v): v is Obj => typeof v === "object" && v !== null);
  if (x instanceof Map) return [...x.values()] as Obj[];
  if (typeof x === "object" && x !== null)
    return Object.values(x).filter((v): v is Obj => typeof v === "object" && v !== null);
  return [];
}

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const text = (v: unknown): LocalizedText | string | null =>
  typeof v === "string" ? v : typeof v === "object" && v !== null ? (v as LocalizedText) : null;

function shop(world: World): Obj {
  const s = world.shop;
  return typeof s === "object" && s !== null ? (s as Obj) : {};
}

/**
 * A cart of the shop's slice by id: its carts are a Map while the shop runs (an `IdTable`), a plain object in a world
 * restored from JSON that the shop has not touched since.
 */
export function shopCart(world: World, cartId: string): Obj | undefined {
  const carts = shop(world).carts;
  if (carts instanceof Map) return carts.get(cartId) as Obj | undefined;
  return typeof carts === "object" && carts !== null
    ? ((carts as Obj)[cartId] as Obj | undefined)
    : undefined;
}

/** Minor units of a Money-like value (`{amount, currency}`) or a bare number. */
function money(v: unknown): { amount: number; currency: string | null } {
  if (typeof v === "number") return { amount: v, currency: null };
  if (typeof v === "object" && v !== null) {
    const m = v as Obj;
    return { amount: num(m.amount) ?? 0, currency: str(m.currency) };
  }
  return { amount: 0, currency: null };
}

export function shopVenues(world: World): ShopVenueView[] {
  const s = shop(world);
  return values(s.venues).map((v) => ({
    id: str(v.id) ?? "",
    name: text(v.name) ?? "",
    city: text(v.city),
    capacity: num(v.capacity),
  }));
}

function eventView(e: Obj): ShopEventView {
  const venue = e.venue as Obj | undefined;
  return {
    id: str(e.id) ?? "",
    slug: str(e.slug),
    venueId: str(e.venueId) ?? str(venue?.id),
    name: text(e.name) ?? "",
    startsAt: str(e.startsAt),
    endsAt: str(e.endsAt),
    imageUrl: str(e.imageUrl),
    surveyId: str(e.surveyId),
    slots: values(e.slots).map((s) => ({
      id: str(s.id) ?? "",
      startsAt: str(s.startsAt) ?? "",
      endsAt: str(s.endsAt) ?? "",
      capacity: num(s.capacity),
    })),
  };
}

/** The name and IANA time zone of a shop venue (the default zone when the venue or its zone is unknown). */
export function shopVenue(
  world: World,
  venueId: string | null,
): { name: LocalizedText | string | null; timeZone: string } {
  const venues = shop(world).venues;
  const venue =
    venueId !== null && typeof venues === "object" && venues !== null
      ? ((venues as Obj)[venueId] as Obj | undefined)
      : undefined;
  return { name: text(venue?.name), timeZone: str(venue?.timeZone) ?? DEFAULT_TIME_ZONE };
}

export function shopEvents(world: World): ShopEventView[] {
  return values(shop(world).events).map(eventView);
}

export function shopEvent(world: World, eventId: string): ShopEventView | null {
  const events = shop(world).events;
  if (typeof events === "object" && events !== null && !Array.isArray(events)) {
    const hit = (events as Obj)[eventId];
    if (typeof hit === "object" && hit !== null) return eventView(hit as Obj);
  }
  return shopEvents(world).find((e) => e.id === eventId) ?? null;
}

function ticketView(t: Obj, orderId: string | null): ShopTicketView | null {
  const id = str(t.id);
  const quicode = str(t.quicode);
  if (!id || !quicode) return null;
  const status = str(t.status);
  return {
    id,
    orderId: str(t.orderId) ?? orderId ?? "",
    eventId: str(t.eventId) ?? "",
    slotId: str(t.slotId),
    articleId: str(t.articleId),
    articleName: text(t.articleName),
    holderName: str(t.holderName),
    quicode,
    status: status === "used" || status === "cancelled" ? status : "valid",
    record: t,
  };
}

export function shopOrders(world: World): ShopOrderView[] {
  const s = shop(world);
  const looseTickets = values(s.tickets);
  return values(s.orders).map((o) => {
    const id = str(o.id) ?? "";
    const embedded = values(o.tickets);
    const source = embedded.length > 0 ? embedded : looseTickets.filter((t) => t.orderId === id);
    const total = money(o.total);
    const discounts = values(o.discounts);
    const customer = (o.customer as Obj | null | undefined) ?? null;
    const first = customer ? str(customer.firstName) : null;
    const last = customer ? str(customer.lastName) : null;
    return {
      id,
      cartId: str(o.cartId),
      status: str(o.status) ?? "paid",
      createdAt: str(o.createdAt) ?? new Date(0).toISOString(),
      currency: total.currency ?? str(o.currency) ?? "CHF",
      totalMinor: total.amount,
      discountMinor: discounts.reduce((n, d) => n + (num(d.amount) ?? 0), 0),
      voucherCodes: discounts.map((d) => str(d.code)).filter((c): c is string => c !== null),
      customerEmail: customer ? str(customer.email) : null,
      customerName: first || last ? [first, last].filter(Boolean).join(" ") : null,
      culture: str(o.culture),
      tickets: source.map((t) => ticketView(t, id)).filter((t): t is ShopTicketView => t !== null),
      record: o,
    };
  });
}

/** Every shop ticket, wherever the shop keeps them (inside orders or in a ticket table). */
export function shopTickets(world: World): ShopTicketView[] {
  const s = shop(world);
  const loose = values(s.tickets)
    .map((t) => ticketView(t, null))
    .filter((t): t is ShopTicketView => t !== null);
  if (loose.length > 0) return loose;
  return shopOrders(world).flatMap((o) => o.tickets);
}

/**
 * The shop ticket with this id: one lookup in the shop's ticket table (a scan of every order only for state that keeps
 * its tickets inside the orders). Admissions call it per scan, so it must not grow with the number of tickets sold.
 */
export function shopTicketById(world: World, ticketId: string): ShopTicketView | null {
  const table = shop(world).tickets;
  if (typeof table === "object" && table !== null && !Array.isArray(table)) {
    const hit = (table as Obj)[ticketId];
    if (typeof hit === "object" && hit !== null) return ticketView(hit as Obj, null);
    // The shop keeps every ticket in its table (and counts them in `orderCap`): a miss is a miss, in O(1). Only an
    // older snapshot without that bookkeeping and with an empty table may keep its tickets inside the orders.
    if (shop(world).orderCap !== undefined) return null;
    for (const _ in table) return null;
  }
  return shopTickets(world).find((t) => t.id === ticketId) ?? null;
}

/** The shop ticket whose Quicode is exactly this payload (so a wrong checksum resolves to nothing). */
export function shopTicketByQuicode(world: World, quicode: string): ShopTicketView | null {
  const match = /^Q1\.(tkt_[0-9A-Za-z]+)\./.exec(quicode);
  const ticket = match ? shopTicketById(world, match[1] as string) : null;
  return ticket?.quicode === quicode ? ticket : null;
}

export function shopPayments(world: World): ShopPaymentView[] {
  return values(shop(world).payments).map((p) => {
    const m = money(p.amount);
    return {
      id: str(p.id) ?? "",
      cartId: str(p.cartId),
      orderId: str(p.orderId),
      providerId: str(p.providerId) ?? str(p.paymentProviderId),
      status: str(p.status) ?? "pending",
      amountMinor: m.amount,
      currency: m.currency ?? str(p.currency) ?? "CHF",
      createdAt: str(p.createdAt) ?? new Date(0).toISOString(),
      completedAt: str(p.completedAt) ?? str(p.updatedAt),
    };
  });
}

/**
 * Whether the caller may see an order: the same rule as the shop's (its cart's client, and for a session token
 * its own session only).
 */
export function orderVisibleTo(
  world: World,
  orderId: string,
  auth: { clientId: string; kind: string; sessionId?: string } | null,
): boolean {
  const s = shop(world);
  const order = (s.orders as Record<string, Obj> | undefined)?.[orderId];
  if (!order) return false;
  const cart = shopCart(world, str(order.cartId) ?? "");
  if (!cart) return false;
  if (auth === null) return true;
  if (cart.clientId !== auth.clientId) return false;
  return auth.kind !== "session" || (cart.sessionId ?? null) === (auth.sessionId ?? null);
}

/**
 * A shop ticket as the `ticket.*` webhook payloads carry it (`WebhookTicket`), with a freshly signed `ticketUrl`
 * (`ticket.used` from the entrance, `ticket.downloaded` from the assets).
 */
export function webhookShopTicket(
  ctx: Pick<OperationContext, "signedUrl">,
  ticket: ShopTicketView,
  status: ShopTicketView["status"] = ticket.status,
) {
  return {
    id: ticket.id,
    orderId: ticket.orderId,
    eventId: ticket.eventId,
    slotId: ticket.slotId,
    articleId: ticket.articleId ?? "",
    holderName: ticket.holderName,
    quicode: ticket.quicode,
    ticketUrl: ctx.signedUrl(`/assets/v1/tickets/${ticket.id}.pdf`),
    status,
  };
}
