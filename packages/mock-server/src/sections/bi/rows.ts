import { pickText } from "../../core/culture.ts";
import type { Culture, LocalizedText, World } from "../../core/types.ts";
import { entranceSlice, resolvedGates } from "../entrance/state.ts";
import { EXTERNAL_ENTRANCE, type ExternalEntranceState } from "../external-entrance/state.ts";
import {
  type ShopEventView,
  shopCart,
  shopEvent,
  shopOrders,
  shopPayments,
  shopTickets,
  shopVenue,
} from "../shared/shop-view.ts";
import type { Row } from "./odata/evaluate.ts";

/**
 * Rows derived from the live world: the shop's orders, tickets and payments, imported external tickets and the
 * entrance scan log, in the shape of the contract's `Bi*` schemas. Recomputed per request (they are few).
 */

type Obj = Record<string, unknown>;
const text = (v: LocalizedText | string | null | undefined, culture: Culture): string | null =>
  v === null || v === undefined ? null : typeof v === "string" ? v : pickText(v, culture);
const major = (minor: number) => Math.round(minor) / 100;
/** The row's change stamp (`ModifiedAt`): the record's own `updatedAt` when it keeps one, else its latest instant. */
const latest = (record: Obj, ...instants: (string | null | undefined)[]): string => {
  const stamps = [record.updatedAt, ...instants].filter(
    (v): v is string => typeof v === "string" && v !== "",
  );
  let best = stamps[0] ?? new Date(0).toISOString();
  for (const s of stamps) if (Date.parse(s) > Date.parse(best)) best = s;
  return best;
};

function shopTable(world: World, name: string): Obj {
  const shop = world.shop as Obj | undefined;
  const table = shop?.[name];
  return typeof table === "object" && table !== null ? (table as Obj) : {};
}

function firstAdmissions(world: World): Map<string, string> {
  const first = new Map<string, string>();
  const scans = world.entrance ? entranceSlice(world).scans : [];
  for (const s of scans) {
    if (s.result === "admitted" && s.ticket && !first.has(s.ticket.id)) first.set(s.ticket.id, s.at);
  }
  return first;
}

export function liveOrders(world: World): Row[] {
  const payments = shopPayments(world);
  return shopOrders(world).map((o) => {
    const customer = (o.record.customer as Obj | undefined) ?? {};
    const cart = shopCart(world, o.cartId ?? "");
    const payment = payments.find((p) => p.orderId === o.id);
    return {
      OrderId: o.id,
      CartId: o.cartId ?? "",
      CreatedAt: o.createdAt,
      Status:
        o.status === "paid" ||
        o.status === "refunded" ||
        o.status === "partially_refunded" ||
        o.status === "cancelled"
          ? o.status
          : "paid",
      Currency: o.currency,
      TotalAmount: major(o.totalMinor),
      RefundedAmount: 0,
      DiscountAmount: major(o.discountMinor),
      VoucherCode: o.voucherCodes.length ? o.voucherCodes.join(",") : null,
      TicketCount: o.tickets.length,
      PaymentProviderId: payment?.providerId ?? "",
      Channel: cart && typeof cart.sessionId === "string" ? "widget" : "api",
      Culture: o.culture ?? "de-CH",
      CustomerEmail: typeof customer.email === "string" ? customer.email : "",
      CustomerFirstName: typeof customer.firstName === "string" ? customer.firstName : "",
      CustomerLastName: typeof customer.lastName === "string" ? customer.lastName : "",
      CustomerCompany: typeof customer.company === "string" ? customer.company : null,
      ModifiedAt: latest(o.record, o.createdAt),
    };
  });
}

/** The event's start, venue and venue time zone, as the Tickets rows carry them. */
function eventColumns(world: World, event: ShopEventView | null, culture: Culture): Row {
  const venue = shopVenue(world, event?.venueId ?? null);
  const first = event?.slots.reduce<string | null>(
    (min, s) => (min === null || Date.parse(s.startsAt) < Date.parse(min) ? s.startsAt : min),
    null,
  );
  return {
    EventStartsAt: event?.startsAt ?? first ?? new Date(0).toISOString(),
    VenueName: text(venue.name, culture) ?? "",
    VenueTimeZone: venue.timeZone,
  };
}

export function liveTickets(world: World, culture: Culture): Row[] {
  const admitted = firstAdmissions(world);
  const orders = new Map(shopOrders(world).map((o) => [o.id, o]));
  const articles = shopTable(world, "articles");
  const rows: Row[] = shopTickets(world).map((t) => {
    const event = shopEvent(world, t.eventId);
    const slot = event?.slots.find((s) => s.id === t.slotId);
    const order = orders.get(t.orderId);
    const article = articles[t.articleId ?? ""] as { price?: Record<string, number> } | undefined;
    const currency = order?.currency ?? null;
    const price = currency ? article?.price?.[currency] : undefined;
    return {
      TicketId: t.id,
      Source: "shop",
      Vendor: null,
      OrderId: t.orderId || null,
      EventId: t.eventId,
      EventName: text(event?.name, culture) ?? "",
      ...eventColumns(world, event, culture),
      SlotId: t.slotId,
      SlotStartsAt: slot?.startsAt ?? null,
      ArticleId: t.articleId,
      ArticleName: text(t.articleName, culture),
      PriceAmount: price === undefined ? null : major(price),
      Currency: currency,
      HolderName: t.holderName,
      Status: t.status,
      IssuedAt: order?.createdAt ?? new Date(0).toISOString(),
      FirstAdmittedAt: admitted.get(t.id) ?? null,
      ModifiedAt: latest(t.record, order?.createdAt, admitted.get(t.id)),
    };
  });
  const external = world[EXTERNAL_ENTRANCE] as ExternalEntranceState | undefined;
  for (const id of external?.ticketOrder ?? []) {
    const t = external?.tickets[id];
    if (!t) continue;
    const event = shopEvent(world, t.eventId);
    rows.push({
      TicketId: t.id,
      Source: "external",
      Vendor: t.vendor,
      OrderId: null,
      EventId: t.eventId,
      EventName: text(event?.name, culture) ?? "",
      ...eventColumns(world, event, culture),
      SlotId: null,
      SlotStartsAt: null,
      ArticleId: null,
      ArticleName: null,
      PriceAmount: null,
      Currency: null,
      HolderName: t.holderName,
      Status: t.status,
      IssuedAt: t.importedAt,
      FirstAdmittedAt: admitted.get(t.id) ?? null,
      ModifiedAt: latest(t as unknown as Obj, t.importedAt, admitted.get(t.id)),
    });
  }
  return rows;
}

export function livePayments(world: World): Row[] {
  const raw = shopTable(world, "payments");
  return shopPayments(world).map((p) => {
    const record = (raw[p.id] as Obj | undefined) ?? {};
    const failure =
      typeof record.failureCode === "string"
        ? record.failureCode
        : p.status === "failed"
          ? "card_declined"
          : null;
    return {
      PaymentId: p.id,
      CartId: p.cartId ?? "",
      OrderId: p.orderId,
      PaymentProviderId: p.providerId ?? "",
      Status: p.status,
      Amount: major(p.amountMinor),
      Currency: p.currency,
      CreatedAt: p.createdAt,
      CompletedAt: p.status === "pending" ? null : p.completedAt,
      FailureCode: failure,
      ModifiedAt: latest(record, p.createdAt, p.status === "pending" ? null : p.completedAt),
    };
  });
}

export function liveEntrances(world: World, culture: Culture): Row[] {
  if (!world.entrance) return [];
  const state = entranceSlice(world);
  const gates = new Map(resolvedGates(world).map((g) => [g.id, g]));
  const categories = new Map(state.categories.map((c) => [c.id, c]));
  return state.scans.map((s) => {
    const category = s.categoryId === null ? undefined : categories.get(s.categoryId);
    return {
      ScanId: s.id,
      EventId: s.eventId,
      GateId: s.gateId,
      GateName: text(gates.get(s.gateId)?.name, culture) ?? s.gateId,
      VenueTimeZone: shopVenue(world, s.eventId ? (shopEvent(world, s.eventId)?.venueId ?? null) : null)
        .timeZone,
      Direction: s.direction === "in" ? "entry" : "exit",
      Result: s.result,
      Reason: s.reason,
      TicketId: s.ticket?.id ?? null,
      TicketSource: s.ticket?.source ?? null,
      CategoryId: category?.id ?? null,
      CategoryName: text(category?.name, culture),
      ScannedAt: s.at,
      DeviceId: s.deviceId,
      ModifiedAt: s.at,
    };
  });
}
