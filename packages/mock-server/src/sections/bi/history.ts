import { zonedInstant } from "@entrada/zoned-time";
import { Prng, ulid } from "../../core/ids.ts";
import { Kept } from "../../core/kept.ts";
import { pickText } from "../../core/messages.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";
import type { Row } from "./odata/evaluate.ts";
import seedJson from "./seed/history.json" with { type: "json" };

/**
 * The seeded past of the feed: deterministic, so the same seed and anchor give the same rows. Not stored as rows:
 * the history is a sequence of *units* (an order with its payments, tickets and scans; an imported ticket; an
 * unknown code at a gate), each drawn from one PRNG stream. Knowing the PRNG state at a unit's start is enough to
 * draw that unit again, so `history-index.ts` keeps only those states and a sorted index, and materialises the
 * rows of the page it serves in the requested culture.
 */

export interface HistoryConfig {
  /** PRNG seed. */
  seed: number;
  /** Number of orders to generate (tickets, payments and scans follow from them). */
  orders: number;
  /**
   * The history's sales and scans end at the start (UTC) of this instant's day and span `days` days before it;
   * events continue up to `AHEAD_DAYS` after it (on sale, not held yet).
   */
  anchor: number;
  days: number;
}

/**
 * What the history is drawn from, as data: `seed/history.json` (checked against `seed/history.schema.json` by a
 * test). The order of each list is part of the drawing.
 */
interface HistorySeed {
  history: Omit<HistoryConfig, "anchor">;
  venues: { id: string; name: string; timeZone: string }[];
  events: LocalizedText[];
  articles: { id: string; name: LocalizedText; price: number }[];
  vouchers: { code: string; percent?: number; amount?: number }[];
  cultures: Culture[];
  channels: string[];
  firstNames: string[];
  lastNames: string[];
  companies: (string | null)[];
  gates: { id: string; name: LocalizedText }[];
  categories: Record<"shop" | "external", { id: string; name: LocalizedText }>;
}

const SEED = seedJson as HistorySeed;

export const DEFAULT_HISTORY: Omit<HistoryConfig, "anchor"> = SEED.history;

interface PastEvent {
  id: string;
  name: LocalizedText;
  venueId: string;
  venueName: string;
  timeZone: string;
  /** When the event starts: 19:00 at the venue (epoch ms); the doors open an hour before. */
  startsAt: number;
}

const VENUES = SEED.venues;
const EVENT_NAMES = SEED.events;
const ARTICLES = SEED.articles;
const VOUCHERS = SEED.vouchers;
/** Share of orders that apply a voucher. */
const VOUCHER_SHARE = 0.15;
/** Events run this many days past the history's end: on sale now (sales start 60 days before an event). */
export const AHEAD_DAYS = 56;
const CULTURES = SEED.cultures;
const CHANNELS = SEED.channels;
const FIRST = SEED.firstNames;
const LAST = SEED.lastNames;
const COMPANIES = SEED.companies;
const GATES = SEED.gates;
const CATEGORIES = SEED.categories;
const DAY = 86_400_000;
const HOUR = 3_600_000;

/** The datasets in the order of `ENTITY_SETS`. */
export const DATASETS = ["Orders", "Tickets", "Payments", "Entrances"] as const;
export const ORDERS = 0;
export const TICKETS = 1;
export const PAYMENTS = 2;
export const ENTRANCES = 3;

/** Receives each row of the wanted dataset a unit draws, in the unit's order. */
export type RowSink = (row: Row) => void;
/** Receives the key and `ModifiedAt` (epoch ms) of every row a unit draws, built or not. */
export type KeySink = (dataset: number, key: string, modifiedAt: number) => void;
/** `only` for no rows at all (with a `KeySink`: what indexing needs). */
export const NO_ROWS = -1;

/** The fixed frame of one history: its events, and how many units of each kind follow. */
export interface HistoryPlan {
  config: HistoryConfig;
  events: PastEvent[];
  /** First day of the history (epoch ms, UTC midnight). */
  start: number;
  /** End of the history (exclusive; epoch ms, UTC midnight of the anchor's day): nothing happens from here on. */
  end: number;
  /** PRNG state after the events were drawn: the state the first unit starts from. */
  firstState: number;
  /** Units: `orders` orders, then `external` imported tickets, then `unknown` unknown codes. */
  orders: number;
  external: number;
  unknown: number;
  units: number;
}

const TWO = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, "0"));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, "0"));
const days = new Kept<number, string>(2048);
/**
 * `new Date(ms).toISOString()` for whole milliseconds, with the date part cached per day: the history draws
 * millions of instants, and formatting each one whole is a large part of drawing it.
 */
function datePart(day: number): string {
  return new Date(day * DAY).toISOString().slice(0, 11);
}

export function iso(ms: number): string {
  const day = Math.floor(ms / DAY);
  const date = days.get(day, datePart);
  let rest = ms - day * DAY;
  const milli = rest % 1000;
  rest = (rest - milli) / 1000;
  const second = rest % 60;
  rest = (rest - second) / 60;
  const minute = rest % 60;
  const hour = (rest - minute) / 60;
  return `${date}${TWO[hour]}:${TWO[minute]}:${TWO[second]}.${THREE[milli]}Z`;
}

export function historyPlan(config: HistoryConfig): HistoryPlan {
  const prng = new Prng(config.seed);
  const rand = prng.next;
  const end = Math.floor(config.anchor / DAY) * DAY;
  const start = end - config.days * DAY;
  const spacing = Math.max(1, Math.floor((config.days + AHEAD_DAYS) / (EVENT_NAMES.length + 1)));
  const events: PastEvent[] = EVENT_NAMES.map((name, i) => {
    const venue = VENUES[i % VENUES.length] as (typeof VENUES)[number];
    const day = start + (i + 1) * spacing * DAY;
    return {
      id: `evt_${ulid(day, rand)}`,
      name,
      venueId: venue.id,
      venueName: venue.name,
      timeZone: venue.timeZone,
      startsAt: zonedInstant(venue.timeZone, day, 19),
    };
  });
  const orders = config.orders;
  const external = Math.floor(orders / 10);
  const unknown = Math.floor(orders / 20);
  return {
    config,
    events,
    start,
    end,
    firstState: prng.state,
    orders,
    external,
    unknown,
    units: orders + external + unknown,
  };
}

/**
 * Draws unit `unit` from `rand` (which must be at the unit's start state) and hands the rows of dataset `only`
 * (`NO_ROWS`: none) to `sink`, in the feed's column order, texts in `culture`. The PRNG draws are the same whatever
 * `only` is: every random value is drawn outside the rows, so skipping a row skips no draw. `keys` hears of every
 * row of every dataset, built or not, in the same order.
 */
export function drawUnit(
  plan: HistoryPlan,
  unit: number,
  rand: () => number,
  culture: Culture,
  sink: RowSink,
  only: number,
  keys?: KeySink,
): void {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const { events, start, end } = plan;
  const wants = (dataset: number) => only === dataset;
  // An id no wanted row shows is not spelled out: its 16 random draws are only taken (a page draws thousands of
  // units for one row each, and their unused ids would be garbage).
  const id = (prefix: string, ms: number, ...shownIn: number[]): string => {
    if (keys || shownIn.includes(only)) return `${prefix}_${ulid(ms, rand)}`;
    for (let i = 0; i < 16; i++) rand();
    return "";
  };

  if (unit < plan.orders) {
    const n = unit;
    const eventIndex = Math.floor(rand() * events.length);
    const event = events[eventIndex] as PastEvent;
    const doors = event.startsAt - HOUR;
    // Sales spread over the 60 days before the event, within the history (an event to come sells until today).
    const earliest = Math.max(start, event.startsAt - 60 * DAY);
    const latest = Math.min(doors, end - 1000);
    const createdAt = earliest + Math.floor(rand() * Math.max(0, latest - earliest));
    const cartId = id("crt", createdAt - 300_000, ORDERS, PAYMENTS);
    const currency = rand() < 0.9 ? "CHF" : "EUR";
    const provider = rand() < 0.75 ? "card" : "redirect";
    // Some buyers are declined, cancel or let a hosted payment page time out first, then pay. The attempt is for
    // the same cart, so it carries the cart's amount (known once the items are drawn), as a live one does.
    // Its row follows the tickets and scans (the PRNG order).
    let attemptId: string | undefined;
    let failed = false;
    let failure: string | null = null;
    if (rand() < 0.12) {
      failed = rand() < 0.7;
      attemptId = id("pay", createdAt - 120_000, PAYMENTS);
      if (failed)
        failure = pick(["card_declined", "card_declined", "insufficient_funds", "authentication_failed"]);
    }
    const orderId = id("ord", createdAt, ORDERS, TICKETS, PAYMENTS);
    const count = 1 + Math.floor(rand() * rand() * 5);
    // A refund cancels the tickets two days after the sale: only sales older than that can be refunded.
    const refunded = rand() < 0.03 && createdAt + 2 * DAY < end;
    const voucherDraw = rand();
    const voucher =
      voucherDraw < VOUCHER_SHARE && VOUCHERS.length > 0
        ? (VOUCHERS[Math.floor((voucherDraw / VOUCHER_SHARE) * VOUCHERS.length)] as (typeof VOUCHERS)[number])
        : null;
    const first = pick(FIRST);
    const last = pick(LAST);
    let total = 0;
    for (let k = 0; k < count; k++) {
      const articleIndex = rand() < 0.7 ? 0 : rand() < 0.8 ? 1 : 2;
      const article = ARTICLES[articleIndex] as (typeof ARTICLES)[number];
      total += article.price;
      const ticketId = id("tkt", createdAt + k, TICKETS, ENTRANCES);
      const shows = !refunded && rand() < 0.82;
      const admittedAt = doors + Math.floor(rand() * 3 * HOUR);
      // An event still to come has admitted no one yet.
      const used = shows && admittedAt < end;
      // A refund cancels the tickets two days after the sale.
      const modified = used ? admittedAt : refunded ? createdAt + 2 * DAY : createdAt;
      keys?.(TICKETS, ticketId, modified);
      if (wants(TICKETS))
        sink({
          TicketId: ticketId,
          Source: "shop",
          Vendor: null,
          OrderId: orderId,
          EventId: event.id,
          EventName: pickText(event.name, culture),
          EventStartsAt: iso(event.startsAt),
          VenueName: event.venueName,
          VenueTimeZone: event.timeZone,
          SlotId: `slt_${event.id.slice(4, 14)}EVE`,
          SlotStartsAt: iso(event.startsAt),
          ArticleId: article.id,
          ArticleName: pickText(article.name, culture),
          PriceAmount: article.price / 100,
          Currency: currency,
          HolderName: k === 0 ? `${first} ${last}` : null,
          Status: refunded ? "cancelled" : used ? "used" : "valid",
          IssuedAt: iso(createdAt),
          FirstAdmittedAt: used ? iso(admittedAt) : null,
          ModifiedAt: iso(modified),
        });
      const scanInto = (at: number, gate: number, result: string, reason: string | null) =>
        scan(at, gate, event, ticketId, "shop", result, reason);
      if (refunded && rand() < 0.3 && admittedAt < end) scanInto(admittedAt, 0, "denied", "cancelled");
      if (!used) continue;
      const gate = rand() < 0.7 ? 0 : 1;
      scanInto(admittedAt, gate, "admitted", null);
      if (rand() < 0.04) scanInto(admittedAt + 600_000, gate, "denied", "already_used");
      if (rand() < 0.15) {
        const out1 = admittedAt + 60_000 + Math.floor(rand() * 2 * HOUR);
        scanInto(out1, 2, "exited", null);
        if (rand() < 0.6) scanInto(out1 + 900_000, gate, "admitted", null);
      }
    }
    const discount = voucher
      ? Math.min(total, voucher.percent ? Math.round((total * voucher.percent) / 100) : (voucher.amount ?? 0))
      : 0;
    const charged = total - discount;
    if (attemptId !== undefined) {
      keys?.(PAYMENTS, attemptId, createdAt - 90_000);
      // The attempt is for the same cart, so it carries the cart's amount (known once the items are drawn).
      if (wants(PAYMENTS))
        sink({
          PaymentId: attemptId,
          CartId: cartId,
          OrderId: null,
          PaymentProviderId: failed ? "card" : "redirect",
          // Redirect attempts end cancelled by the buyer or expired on the provider's page (deterministic split).
          Status: failed ? "failed" : n % 3 === 0 ? "expired" : "cancelled",
          Amount: charged / 100,
          Currency: currency,
          CreatedAt: iso(createdAt - 120_000),
          CompletedAt: iso(createdAt - 90_000),
          FailureCode: failure,
          ModifiedAt: iso(createdAt - 90_000),
        });
    }
    const orderModified = refunded ? createdAt + 2 * DAY : createdAt;
    const channel = pick(CHANNELS);
    const orderCulture = pick(CULTURES);
    const company = pick(COMPANIES);
    const paymentId = id("pay", createdAt - 1_000, PAYMENTS);
    keys?.(ORDERS, orderId, orderModified);
    keys?.(PAYMENTS, paymentId, orderModified);
    if (wants(ORDERS))
      sink({
        OrderId: orderId,
        CartId: cartId,
        CreatedAt: iso(createdAt),
        Status: refunded ? "refunded" : "paid",
        Currency: currency,
        TotalAmount: charged / 100,
        RefundedAmount: refunded ? charged / 100 : 0,
        DiscountAmount: discount / 100,
        VoucherCode: voucher?.code ?? null,
        TicketCount: count,
        PaymentProviderId: provider,
        Channel: channel,
        Culture: orderCulture,
        CustomerEmail: `${first}.${last}${n}@example.com`
          .toLowerCase()
          .normalize("NFD")
          .replace(/[\u0300-\u036f]/g, ""),
        CustomerFirstName: first,
        CustomerLastName: last,
        CustomerCompany: company,
        ModifiedAt: iso(orderModified),
      });
    if (wants(PAYMENTS))
      sink({
        PaymentId: paymentId,
        CartId: cartId,
        OrderId: orderId,
        PaymentProviderId: provider,
        Status: refunded ? "refunded" : "succeeded",
        Amount: charged / 100,
        Currency: currency,
        CreatedAt: iso(createdAt - 1_000),
        CompletedAt: iso(createdAt),
        FailureCode: null,
        ModifiedAt: iso(orderModified),
      });
    return;
  }
  if (unit < plan.orders + plan.external) {
    // A ticket imported from an external registration vendor, and its scan.
    const n = unit - plan.orders;
    const eventIndex = Math.floor(rand() * events.length);
    const event = events[eventIndex] as PastEvent;
    // Imported ten days before the event, or yesterday for an event that close.
    const imported = Math.max(start, Math.min(event.startsAt - 10 * DAY, end - 12 * HOUR));
    const ticketId = id("xtk", imported + n, TICKETS, ENTRANCES);
    const shows = rand() < 0.85;
    const admittedAt = event.startsAt - HOUR + Math.floor(rand() * 3 * HOUR);
    const used = shows && admittedAt < end;
    const vendor = rand() < 0.7 ? "eventbrite" : "pretix";
    const holder = `${pick(FIRST)} ${pick(LAST)}`;
    const modified = used ? admittedAt : imported;
    keys?.(TICKETS, ticketId, modified);
    if (wants(TICKETS))
      sink({
        TicketId: ticketId,
        Source: "external",
        Vendor: vendor,
        OrderId: null,
        EventId: event.id,
        EventName: pickText(event.name, culture),
        EventStartsAt: iso(event.startsAt),
        VenueName: event.venueName,
        VenueTimeZone: event.timeZone,
        SlotId: null,
        SlotStartsAt: null,
        ArticleId: null,
        ArticleName: null,
        PriceAmount: null,
        Currency: null,
        HolderName: holder,
        Status: used ? "used" : "valid",
        IssuedAt: iso(imported),
        FirstAdmittedAt: used ? iso(admittedAt) : null,
        ModifiedAt: iso(modified),
      });
    if (used) scan(admittedAt, 1, event, ticketId, "external", "admitted", null);
    return;
  }
  // An unknown code at a gate (a forged or foreign ticket); none at an event still to come.
  const event = pick(events);
  const at = event.startsAt - HOUR + Math.floor(rand() * 3 * HOUR);
  if (at < end) scan(at, 0, event, null, null, "denied", "unknown_quicode", false);

  function scan(
    at: number,
    gate: number,
    event: PastEvent,
    ticketId: string | null,
    source: "shop" | "external" | null,
    result: string,
    reason: string | null,
    known = true,
  ): void {
    const scanId = id("scn", at, ENTRANCES);
    const device = 1 + Math.floor(rand() * 4);
    keys?.(ENTRANCES, scanId, at);
    if (!wants(ENTRANCES)) return;
    const g = GATES[gate] as (typeof GATES)[number];
    const category = source === null ? null : CATEGORIES[source];
    const scannedAt = iso(at);
    sink({
      ScanId: scanId,
      // An unknown code belongs to no event; it was read at the gate of the event's venue.
      EventId: known ? event.id : null,
      GateId: g.id,
      GateName: pickText(g.name, culture),
      VenueTimeZone: event.timeZone,
      Direction: result === "exited" || result === "rejected" ? "exit" : "entry",
      Result: result,
      Reason: reason,
      TicketId: ticketId,
      TicketSource: source,
      CategoryId: category?.id ?? null,
      CategoryName: category ? pickText(category.name, culture) : null,
      ScannedAt: scannedAt,
      DeviceId: `dev-${gate + 1}-${device}`,
      ModifiedAt: scannedAt,
    });
  }
}
