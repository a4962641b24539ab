import { t } from "../../core/culture.ts";
import { mulberry32, ulid } from "../../core/ids.ts";
import type { Culture, LocalizedText } from "../../core/types.ts";
import type { Row } from "./odata/evaluate.ts";

/** The seeded past of the feed: deterministic, so the same seed and anchor give the same rows. */
export interface History {
  Orders: Row[];
  Tickets: Row[];
  Payments: Row[];
  Entrances: Row[];
}

export interface HistoryConfig {
  /** PRNG seed. */
  seed: number;
  /** Number of orders to generate (tickets, payments and scans follow from them). */
  orders: number;
  /** The history ends the day before this instant (epoch ms) and spans `days` days. */
  anchor: number;
  days: number;
}

export const DEFAULT_HISTORY: Omit<HistoryConfig, "anchor"> = { seed: 20260101, orders: 1500, days: 365 };

interface PastEvent {
  id: string;
  name: LocalizedText;
  venueId: string;
  venueName: string;
  dayOffset: number;
}

const VENUES = [
  { id: "ven_hist01", name: "Hallenstadion Zürich" },
  { id: "ven_hist02", name: "Palexpo Genève" },
  { id: "ven_hist03", name: "Palazzo dei Congressi Lugano" },
  { id: "ven_hist04", name: "BERNEXPO" },
];

const EVENT_NAMES: LocalizedText[] = [
  t("Frühlingskonzert", "Concert de printemps", "Concerto di primavera", "Spring Concert"),
  t("Tech-Konferenz", "Conférence tech", "Conferenza tech", "Tech Conference"),
  t(
    "Sommernachtsfestival",
    "Festival de la nuit d'été",
    "Festival della notte d'estate",
    "Midsummer Festival",
  ),
  t("Jazz am See", "Jazz au bord du lac", "Jazz sul lago", "Jazz by the Lake"),
  t("Kunstmesse", "Foire d'art", "Fiera d'arte", "Art Fair"),
  t("Herbstmarkt", "Marché d'automne", "Mercato d'autunno", "Autumn Market"),
  t("Wintergala", "Gala d'hiver", "Gala d'inverno", "Winter Gala"),
  t("Design-Forum", "Forum du design", "Forum del design", "Design Forum"),
  t("Filmnacht", "Nuit du cinéma", "Notte del cinema", "Film Night"),
  t("Startup-Tag", "Journée des startups", "Giornata delle startup", "Startup Day"),
  t("Orgelkonzert", "Concert d'orgue", "Concerto d'organo", "Organ Recital"),
  t("Familientag", "Journée des familles", "Giornata delle famiglie", "Family Day"),
];

const ARTICLES = [
  { id: "art_hist_std", name: t("Standard", "Standard", "Standard", "Standard"), price: 4900 },
  { id: "art_hist_red", name: t("Ermässigt", "Réduit", "Ridotto", "Concession"), price: 2900 },
  { id: "art_hist_vip", name: t("VIP", "VIP", "VIP", "VIP"), price: 14900 },
];

const CULTURES: Culture[] = ["de-CH", "fr-CH", "it-CH", "en-GB"];
const CHANNELS = ["api", "widget", "widget"];
const FIRST = [
  "Anna",
  "Luca",
  "Claire",
  "Noah",
  "Mia",
  "Elias",
  "Léa",
  "Giulia",
  "James",
  "Sofia",
  "Jonas",
  "Chiara",
];
const LAST = [
  "Muster",
  "Rossi",
  "Dubois",
  "Meier",
  "Keller",
  "Bernasconi",
  "Favre",
  "Carter",
  "Huber",
  "Fontana",
];
const COMPANIES = [null, null, null, "Muster AG", "Ticino Eventi SA", "Lumière SA", "Keller GmbH"];
const GATES: { id: string; name: LocalizedText }[] = [
  { id: "gte_hist01", name: t("Haupteingang", "Entrée principale", "Ingresso principale", "Main entrance") },
  { id: "gte_hist02", name: t("Eingang Süd", "Entrée sud", "Ingresso sud", "South entrance") },
  { id: "gte_hist03", name: t("Ausgang", "Sortie", "Uscita", "Exit") },
];
const CATEGORIES: Record<string, { id: string; name: LocalizedText }> = {
  shop: {
    id: "qcc_01JDX0SH0PT1CKETS00000000A",
    name: t("Shop-Tickets", "Billets de la boutique", "Biglietti dello shop", "Shop tickets"),
  },
  external: {
    id: "qcc_01JDX0EXTERNA1T1CKETS00000B",
    name: t("Externe Tickets", "Billets externes", "Biglietti esterni", "External tickets"),
  },
};
const DAY = 86_400_000;
const HOUR = 3_600_000;

type Raw = Record<string, string | number | boolean | null>;
/** Rows before localization: culture-dependent columns are stored as keys and filled in per culture. */
interface RawHistory {
  events: PastEvent[];
  orders: Raw[];
  tickets: (Raw & { $event: number; $article: number | null })[];
  payments: Raw[];
  entrances: (Raw & { $gate: number; $category: string | null })[];
}

function generate(config: HistoryConfig): RawHistory {
  const rand = mulberry32(config.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const iso = (ms: number) => new Date(ms).toISOString();
  const start = Math.floor(config.anchor / DAY) * DAY - config.days * DAY;
  const spacing = Math.floor(config.days / (EVENT_NAMES.length + 1));
  const events: PastEvent[] = EVENT_NAMES.map((name, i) => {
    const venue = VENUES[i % VENUES.length] as (typeof VENUES)[number];
    return {
      id: `evt_${ulid(start + (i + 1) * spacing * DAY, rand)}`,
      name,
      venueId: venue.id,
      venueName: venue.name,
      dayOffset: (i + 1) * spacing,
    };
  });
  const out: RawHistory = { events, orders: [], tickets: [], payments: [], entrances: [] };

  const scan = (
    at: number,
    gate: number,
    eventId: string | null,
    ticketId: string | null,
    source: string | null,
    result: string,
    reason: string | null,
  ) => {
    out.entrances.push({
      ScanId: `scn_${ulid(at, rand)}`,
      EventId: eventId,
      GateId: (GATES[gate] as (typeof GATES)[number]).id,
      Direction: result === "exited" || result === "rejected" ? "exit" : "entry",
      Result: result,
      Reason: reason,
      TicketId: ticketId,
      TicketSource: source,
      ScannedAt: iso(at),
      DeviceId: `dev-${gate + 1}-${1 + Math.floor(rand() * 4)}`,
      ModifiedAt: iso(at),
      $gate: gate,
      $category: source,
    });
  };

  for (let n = 0; n < config.orders; n++) {
    const eventIndex = Math.floor(rand() * events.length);
    const event = events[eventIndex] as PastEvent;
    const eventDay = start + event.dayOffset * DAY;
    const doors = eventDay + 17 * HOUR;
    // Sales spread over the 60 days before the event.
    const createdAt = Math.max(start, eventDay - Math.floor(rand() * 60 * DAY) - HOUR);
    const cartId = `crt_${ulid(createdAt - 300_000, rand)}`;
    const currency = rand() < 0.9 ? "CHF" : "EUR";
    const provider = rand() < 0.75 ? "card" : "redirect";
    // Some buyers are declined, cancel or let a hosted payment page time out first, then pay. The attempt is for
    // the same cart, so it carries the cart's amount (set below once the items are drawn), as a live one does.
    let attempt: Raw | null = null;
    if (rand() < 0.12) {
      const failed = rand() < 0.7;
      attempt = {
        PaymentId: `pay_${ulid(createdAt - 120_000, rand)}`,
        CartId: cartId,
        OrderId: null,
        PaymentProviderId: failed ? "card" : "redirect",
        // Redirect attempts end cancelled by the buyer or expired on the provider's page (deterministic split).
        Status: failed ? "failed" : n % 3 === 0 ? "expired" : "cancelled",
        Amount: 0,
        Currency: currency,
        CreatedAt: iso(createdAt - 120_000),
        CompletedAt: iso(createdAt - 90_000),
        FailureCode: failed
          ? pick(["card_declined", "card_declined", "insufficient_funds", "authentication_failed"])
          : null,
        ModifiedAt: iso(createdAt - 90_000),
      };
      out.payments.push(attempt);
    }
    const orderId = `ord_${ulid(createdAt, rand)}`;
    const count = 1 + Math.floor(rand() * rand() * 5);
    const refunded = rand() < 0.03;
    const first = pick(FIRST);
    const last = pick(LAST);
    let total = 0;
    for (let k = 0; k < count; k++) {
      const articleIndex = rand() < 0.7 ? 0 : rand() < 0.8 ? 1 : 2;
      const article = ARTICLES[articleIndex] as (typeof ARTICLES)[number];
      total += article.price;
      const ticketId = `tkt_${ulid(createdAt + k, rand)}`;
      const used = !refunded && rand() < 0.82;
      const admittedAt = doors + Math.floor(rand() * 3 * HOUR);
      out.tickets.push({
        TicketId: ticketId,
        Source: "shop",
        Vendor: null,
        OrderId: orderId,
        EventId: event.id,
        SlotId: `slt_${event.id.slice(4, 14)}EVE`,
        SlotStartsAt: iso(eventDay + 18 * HOUR),
        ArticleId: article.id,
        PriceAmount: article.price / 100,
        Currency: currency,
        HolderName: k === 0 ? `${first} ${last}` : null,
        Status: refunded ? "cancelled" : used ? "used" : "valid",
        IssuedAt: iso(createdAt),
        FirstAdmittedAt: used ? iso(admittedAt) : null,
        // A refund cancels the tickets two days after the sale.
        ModifiedAt: iso(used ? admittedAt : refunded ? createdAt + 2 * DAY : createdAt),
        $event: eventIndex,
        $article: articleIndex,
      });
      if (refunded && rand() < 0.3) scan(admittedAt, 0, event.id, ticketId, "shop", "denied", "cancelled");
      if (!used) continue;
      const gate = rand() < 0.7 ? 0 : 1;
      scan(admittedAt, gate, event.id, ticketId, "shop", "admitted", null);
      if (rand() < 0.04)
        scan(admittedAt + 600_000, gate, event.id, ticketId, "shop", "denied", "already_used");
      if (rand() < 0.15) {
        const out1 = admittedAt + 60_000 + Math.floor(rand() * 2 * HOUR);
        scan(out1, 2, event.id, ticketId, "shop", "exited", null);
        if (rand() < 0.6) scan(out1 + 900_000, gate, event.id, ticketId, "shop", "admitted", null);
      }
    }
    if (attempt) attempt.Amount = total / 100;
    out.orders.push({
      OrderId: orderId,
      CartId: cartId,
      CreatedAt: iso(createdAt),
      Status: refunded ? "refunded" : "paid",
      Currency: currency,
      TotalAmount: total / 100,
      RefundedAmount: refunded ? total / 100 : 0,
      TicketCount: count,
      PaymentProviderId: provider,
      Channel: pick(CHANNELS),
      Culture: pick(CULTURES),
      CustomerEmail: `${first}.${last}${n}@example.com`
        .toLowerCase()
        .normalize("NFD")
        .replace(/[\u0300-\u036f]/g, ""),
      CustomerFirstName: first,
      CustomerLastName: last,
      CustomerCompany: pick(COMPANIES),
      ModifiedAt: iso(refunded ? createdAt + 2 * DAY : createdAt),
    });
    out.payments.push({
      PaymentId: `pay_${ulid(createdAt - 1_000, rand)}`,
      CartId: cartId,
      OrderId: orderId,
      PaymentProviderId: provider,
      Status: refunded ? "refunded" : "succeeded",
      Amount: total / 100,
      Currency: currency,
      CreatedAt: iso(createdAt - 1_000),
      CompletedAt: iso(createdAt),
      FailureCode: null,
      ModifiedAt: iso(refunded ? createdAt + 2 * DAY : createdAt),
    });
  }
  // Tickets imported from an external registration vendor, and their scans.
  for (let n = 0; n < Math.floor(config.orders / 10); n++) {
    const eventIndex = Math.floor(rand() * events.length);
    const event = events[eventIndex] as PastEvent;
    const eventDay = start + event.dayOffset * DAY;
    const ticketId = `xtk_${ulid(eventDay - 10 * DAY + n, rand)}`;
    const used = rand() < 0.85;
    const admittedAt = eventDay + 17 * HOUR + Math.floor(rand() * 3 * HOUR);
    out.tickets.push({
      TicketId: ticketId,
      Source: "external",
      Vendor: rand() < 0.7 ? "eventbrite" : "pretix",
      OrderId: null,
      EventId: event.id,
      SlotId: null,
      SlotStartsAt: null,
      ArticleId: null,
      PriceAmount: null,
      Currency: null,
      HolderName: `${pick(FIRST)} ${pick(LAST)}`,
      Status: used ? "used" : "valid",
      IssuedAt: iso(eventDay - 10 * DAY),
      FirstAdmittedAt: used ? iso(admittedAt) : null,
      ModifiedAt: iso(used ? admittedAt : eventDay - 10 * DAY),
      $event: eventIndex,
      $article: null,
    });
    if (used) scan(admittedAt, 1, event.id, ticketId, "external", "admitted", null);
  }
  // Unknown codes at the gates (forged or foreign tickets).
  for (let n = 0; n < Math.floor(config.orders / 20); n++) {
    const event = pick(events);
    const at = start + event.dayOffset * DAY + 17 * HOUR + Math.floor(rand() * 3 * HOUR);
    scan(at, 0, null, null, null, "denied", "unknown_quicode");
  }
  return out;
}

const rawCache = new Map<string, RawHistory>();
const localizedCache = new Map<string, History>();

/**
 * The seeded history in one culture. Generated once per (config, culture) and frozen, so every isolated mock
 * session shares it instead of copying thousands of rows into its world.
 */
export function history(config: HistoryConfig, culture: Culture): History {
  const rawKey = `${config.seed}:${config.orders}:${Math.floor(config.anchor / DAY)}:${config.days}`;
  const key = `${rawKey}:${culture}`;
  const cached = localizedCache.get(key);
  if (cached) return cached;
  let raw = rawCache.get(rawKey);
  if (!raw) {
    raw = generate(config);
    if (rawCache.size > 8) rawCache.clear();
    rawCache.set(rawKey, raw);
  }
  const events = raw.events;
  const result: History = {
    Orders: raw.orders.map((r) => Object.freeze({ ...r })),
    Tickets: raw.tickets.map(({ $event, $article, ...rest }) =>
      Object.freeze({
        ...rest,
        EventName: (events[$event] as PastEvent).name[culture],
        ArticleName:
          $article === null ? null : (ARTICLES[$article] as (typeof ARTICLES)[number]).name[culture],
      }),
    ),
    Payments: raw.payments.map((r) => Object.freeze({ ...r })),
    Entrances: raw.entrances.map(({ $gate, $category, ...rest }) => {
      const category = $category === null ? null : CATEGORIES[$category];
      return Object.freeze({
        ...rest,
        GateName: (GATES[$gate] as (typeof GATES)[number]).name[culture],
        CategoryId: category?.id ?? null,
        CategoryName: category?.name[culture] ?? null,
      });
    }),
  };
  if (localizedCache.size > 32) localizedCache.clear();
  localizedCache.set(key, result);
  return result;
}
