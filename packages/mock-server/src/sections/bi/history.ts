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

/** mulberry32: small, fast, good enough for fixtures. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID-shaped id whose time part is `ms`, so ids sort chronologically like the live ones. */
export function ulidAt(ms: number, rand: () => number): string {
  let time = "";
  let t = Math.max(0, Math.floor(ms));
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  let tail = "";
  for (let i = 0; i < 16; i++) tail += CROCKFORD[Math.floor(rand() * 32)];
  return time + tail;
}

const L = (de: string, fr: string, it: string, en: string): LocalizedText => ({
  "de-CH": de,
  "fr-CH": fr,
  "it-CH": it,
  "en-GB": en,
});

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
  L("Frühlingskonzert", "Concert de printemps", "Concerto di primavera", "Spring Concert"),
  L("Tech-Konferenz", "Conférence tech", "Conferenza tech", "Tech Conference"),
  L(
    "Sommernachtsfestival",
    "Festival de la nuit d'été",
    "Festival della notte d'estate",
    "Midsummer Festival",
  ),
  L("Jazz am See", "Jazz au bord du lac", "Jazz sul lago", "Jazz by the Lake"),
  L("Kunstmesse", "Foire d'art", "Fiera d'arte", "Art Fair"),
  L("Herbstmarkt", "Marché d'automne", "Mercato d'autunno", "Autumn Market"),
  L("Wintergala", "Gala d'hiver", "Gala d'inverno", "Winter Gala"),
  L("Design-Forum", "Forum du design", "Forum del design", "Design Forum"),
  L("Filmnacht", "Nuit du cinéma", "Notte del cinema", "Film Night"),
  L("Startup-Tag", "Journée des startups", "Giornata delle startup", "Startup Day"),
  L("Orgelkonzert", "Concert d'orgue", "Concerto d'organo", "Organ Recital"),
  L("Familientag", "Journée des familles", "Giornata delle famiglie", "Family Day"),
];

const ARTICLES = [
  { id: "art_hist_std", name: L("Standard", "Standard", "Standard", "Standard"), price: 4900 },
  { id: "art_hist_red", name: L("Ermässigt", "Réduit", "Ridotto", "Concession"), price: 2900 },
  { id: "art_hist_vip", name: L("VIP", "VIP", "VIP", "VIP"), price: 14900 },
];

const CULTURES: Culture[] = ["de-CH", "fr-CH", "it-CH", "en-GB"];
const COUNTRIES = ["CH", "CH", "CH", "CH", "DE", "FR", "IT", "AT", "GB", null];
const CHANNELS = ["api", "widget", "widget", "box_office"];
const DAY = 86_400_000;

interface RawHistory {
  events: PastEvent[];
  orders: Record<string, string | number | boolean | null>[];
  tickets: (Record<string, string | number | boolean | null> & {
    eventIndex: number;
    articleIndex: number;
  })[];
  payments: Row[];
  entrances: Row[];
}

function generate(config: HistoryConfig): RawHistory {
  const rand = prng(config.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const start = Math.floor(config.anchor / DAY) * DAY - config.days * DAY;
  const events: PastEvent[] = EVENT_NAMES.map((name, i) => {
    const venue = VENUES[i % VENUES.length] as (typeof VENUES)[number];
    return {
      id: `evt_${ulidAt(start + (i + 1) * Math.floor(config.days / (EVENT_NAMES.length + 1)) * DAY, rand)}`,
      name,
      venueId: venue.id,
      venueName: venue.name,
      dayOffset: (i + 1) * Math.floor(config.days / (EVENT_NAMES.length + 1)),
    };
  });
  const orders: RawHistory["orders"] = [];
  const tickets: RawHistory["tickets"] = [];
  const payments: Row[] = [];
  const entrances: Row[] = [];
  const gates = ["gte_hist01", "gte_hist02", "gte_hist03"];
  for (let n = 0; n < config.orders; n++) {
    const eventIndex = Math.floor(rand() * events.length);
    const event = events[eventIndex] as PastEvent;
    const eventDay = start + event.dayOffset * DAY;
    // Sales spread over the 60 days before the event.
    const createdAt = eventDay - Math.floor(rand() * 60 * DAY) - 3_600_000;
    const createdIso = new Date(Math.max(start, createdAt)).toISOString();
    const cartId = `crt_${ulidAt(createdAt - 300_000, rand)}`;
    const currency = rand() < 0.9 ? "CHF" : "EUR";
    // A share of checkouts are declined first, then paid with another card.
    if (rand() < 0.12) {
      payments.push({
        paymentId: `pay_${ulidAt(createdAt - 120_000, rand)}`,
        orderId: null,
        cartId,
        providerId: "card",
        status: rand() < 0.7 ? "failed" : "cancelled",
        amount: 0,
        currency,
        createdAt: new Date(createdAt - 120_000).toISOString(),
        completedAt: new Date(createdAt - 90_000).toISOString(),
      });
    }
    const orderId = `ord_${ulidAt(createdAt, rand)}`;
    const count = 1 + Math.floor(rand() * rand() * 5);
    let total = 0;
    const status = rand() < 0.03 ? "refunded" : "paid";
    for (let k = 0; k < count; k++) {
      const articleIndex = rand() < 0.7 ? 0 : rand() < 0.8 ? 1 : 2;
      const article = ARTICLES[articleIndex] as (typeof ARTICLES)[number];
      total += article.price;
      const ticketId = `tkt_${ulidAt(createdAt + k, rand)}`;
      const slotStartsAt = new Date(eventDay + 18 * 3_600_000).toISOString();
      const used = status === "paid" && rand() < 0.82;
      tickets.push({
        ticketId,
        orderId,
        eventId: event.id,
        venueId: event.venueId,
        venueName: event.venueName,
        eventDate: new Date(eventDay).toISOString().slice(0, 10),
        slotStartsAt,
        articleId: article.id,
        priceAmount: article.price / 100,
        currency,
        status: status === "refunded" ? "cancelled" : used ? "used" : "valid",
        issuedAt: createdIso,
        eventIndex,
        articleIndex,
      });
      if (used || status === "refunded") {
        const scannedAt = eventDay + 17 * 3_600_000 + Math.floor(rand() * 3 * 3_600_000);
        const gateId = pick(gates);
        const admitted = status !== "refunded";
        entrances.push({
          scanId: `scn_${ulidAt(scannedAt, rand)}`,
          scannedAt: new Date(scannedAt).toISOString(),
          gateId,
          eventId: event.id,
          ticketId,
          direction: "in",
          result: admitted ? "admitted" : "denied",
          reason: admitted ? null : "cancelled",
          categoryName: "Shop tickets",
          deviceId: `dev-${gateId.slice(-2)}-${1 + Math.floor(rand() * 4)}`,
          source: "shop",
        });
        if (admitted && rand() < 0.15) {
          const exitAt = scannedAt + Math.floor(rand() * 2 * 3_600_000) + 60_000;
          entrances.push({
            scanId: `scn_${ulidAt(exitAt, rand)}`,
            scannedAt: new Date(exitAt).toISOString(),
            gateId,
            eventId: event.id,
            ticketId,
            direction: "out",
            result: "exited",
            reason: null,
            categoryName: "Shop tickets",
            deviceId: `dev-${gateId.slice(-2)}-1`,
            source: "shop",
          });
        }
        if (admitted && rand() < 0.04) {
          // Someone tries the same ticket again: denied.
          const againAt = scannedAt + 600_000;
          entrances.push({
            scanId: `scn_${ulidAt(againAt, rand)}`,
            scannedAt: new Date(againAt).toISOString(),
            gateId,
            eventId: event.id,
            ticketId,
            direction: "in",
            result: "denied",
            reason: "already_used",
            categoryName: "Shop tickets",
            deviceId: `dev-${gateId.slice(-2)}-2`,
            source: "shop",
          });
        }
      }
    }
    orders.push({
      orderId,
      createdAt: createdIso,
      status,
      channel: pick(CHANNELS),
      culture: pick(CULTURES),
      currency,
      totalAmount: total / 100,
      ticketCount: count,
      customerEmail: `guest${n + 1}@example.com`,
      customerCountry: pick(COUNTRIES),
    });
    payments.push({
      paymentId: `pay_${ulidAt(createdAt - 1_000, rand)}`,
      orderId,
      cartId,
      providerId: rand() < 0.75 ? "card" : "redirect",
      status: "succeeded",
      amount: total / 100,
      currency,
      createdAt: new Date(createdAt - 1_000).toISOString(),
      completedAt: createdIso,
    });
  }
  // Unknown codes scanned at the gates (forged or foreign tickets).
  for (let n = 0; n < Math.floor(config.orders / 20); n++) {
    const event = pick(events);
    const at = start + event.dayOffset * DAY + 17 * 3_600_000 + Math.floor(rand() * 3 * 3_600_000);
    entrances.push({
      scanId: `scn_${ulidAt(at, rand)}`,
      scannedAt: new Date(at).toISOString(),
      gateId: pick(gates),
      eventId: null,
      ticketId: null,
      direction: "in",
      result: "denied",
      reason: "unknown_quicode",
      categoryName: null,
      deviceId: "dev-01-3",
      source: null,
    });
  }
  return { events, orders, tickets, payments, entrances };
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
    rawCache.set(rawKey, raw);
  }
  const events = raw.events;
  const tickets = raw.tickets.map(({ eventIndex, articleIndex, ...rest }) =>
    Object.freeze({
      ...rest,
      eventName: (events[eventIndex] as PastEvent).name[culture],
      articleName: (ARTICLES[articleIndex] as (typeof ARTICLES)[number]).name[culture],
    }),
  );
  const result: History = {
    Orders: raw.orders.map((r) => Object.freeze(r)),
    Tickets: tickets,
    Payments: raw.payments,
    Entrances: raw.entrances,
  };
  localizedCache.set(key, result);
  return result;
}
