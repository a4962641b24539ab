/**
 * The default seeded catalogue: 24 events across 4 venues, each with slots, pricing assortments and
 * articles, every text in de-CH, fr-CH, it-CH and en-GB. Ids are fixed, dates are relative to the
 * session clock's "today", so the catalogue is always in the future.
 */

import { DEFAULT_CULTURE } from "../../core/culture.ts";
import { msg, pickText } from "../../core/messages.ts";
import type { LocalizedText } from "../../core/types.ts";

/** Text in a seed file: one string for every culture, texts by culture tag, or a message reference. */
export type SeedText = string | LocalizedText;

export interface CatalogueArticle {
  id: string;
  slug: string;
  name: SeedText;
  description: SeedText;
  /** Minor units per currency, e.g. {CHF: 4500, EUR: 4700}. */
  price: Partial<Record<"CHF" | "EUR", number>>;
  maxPerOrder: number;
}

export interface CatalogueAssortment {
  id: string;
  name: SeedText;
  articles: CatalogueArticle[];
}

export interface CatalogueSlot {
  id: string;
  /** RFC 3339. */
  startsAt: string;
  endsAt: string;
  capacity: number;
  /** Seats already sold when the world starts (default 0). */
  sold?: number;
}

export interface CatalogueEvent {
  id: string;
  slug: string;
  venueId: string;
  name: SeedText;
  summary: SeedText;
  description: SeedText;
  /**
   * Absolute URL of the cover image. Omitted (as in the built-in catalogue): the mock's own banner for the event,
   * `<baseUrl>/assets/v1/images/<eventBannerId(id)>`, public like every `getImage` (loads in an `<img>`, offline).
   */
  imageUrl?: string;
  slots: CatalogueSlot[];
  pricingAssortments: CatalogueAssortment[];
  surveyId: string | null;
}

export interface CatalogueVenue {
  id: string;
  name: SeedText;
  city: SeedText;
  /** IANA time zone for date filters (default Europe/Zurich). */
  timeZone?: string;
}

export interface Catalogue {
  venues: CatalogueVenue[];
  events: CatalogueEvent[];
}

const VENUES: CatalogueVenue[] = [
  {
    id: "ven_01JD3XQ2R4S6T8V0W2X4Y6Z8A0",
    name: "Kaufleuten",
    city: msg("shop.catalogue.zurich"),
  },
  { id: "ven_01JD3XR3S5T7V9W1X3Y5Z7A9B1", name: "Bierhübeli", city: msg("shop.catalogue.bern") },
  {
    id: "ven_01JD3XS4T6V8W0X2Y4Z6A8B0C2",
    name: msg("shop.catalogue.lucerne-culture-and-congress-centre"),
    city: msg("shop.catalogue.lucerne"),
  },
  {
    id: "ven_01JD3XT5V7W9X1Y3Z5A7B9C1D3",
    name: msg("shop.catalogue.theatre-du-leman"),
    city: msg("shop.catalogue.geneva"),
  },
];

interface Kind {
  key: string;
  name: LocalizedText;
  summary: LocalizedText;
  description: LocalizedText;
  /** Start hour (local), duration hours. */
  hour: number;
  hours: number;
  capacity: number;
  seated: boolean;
  base: number;
}

const KINDS: Kind[] = [
  {
    key: "jazz-night",
    name: msg("shop.catalogue.jazz-night"),
    summary: msg("shop.catalogue.swiss-and-international-jazz-trios-two"),
    description: msg("shop.catalogue.three-trios-two-sets-each-then"),
    hour: 19,
    hours: 3.5,
    capacity: 450,
    seated: false,
    base: 4500,
  },
  {
    key: "symphony-evening",
    name: msg("shop.catalogue.symphony-evening"),
    summary: msg("shop.catalogue.beethoven-and-brahms-with-the-festival"),
    description: msg("shop.catalogue.an-evening-with-the-fifth-symphony"),
    hour: 19,
    hours: 2.5,
    capacity: 1200,
    seated: true,
    base: 6500,
  },
  {
    key: "comedy-club",
    name: msg("shop.catalogue.comedy-club"),
    summary: msg("shop.catalogue.stand-up-in-four-languages-one"),
    description: msg("shop.catalogue.five-comedians-twenty-minutes-each-ages"),
    hour: 20,
    hours: 2,
    capacity: 300,
    seated: false,
    base: 3500,
  },
  {
    key: "family-theatre",
    name: msg("shop.catalogue.family-theatre"),
    summary: msg("shop.catalogue.a-fairy-tale-for-young-and"),
    description: msg("shop.catalogue.sixty-minutes-without-an-interval-suitable"),
    hour: 14,
    hours: 1,
    capacity: 250,
    seated: true,
    base: 2500,
  },
  {
    key: "electronic-night",
    name: msg("shop.catalogue.electronic-night"),
    summary: msg("shop.catalogue.three-floors-twelve-djs-until-morning"),
    description: msg("shop.catalogue.entry-from-18-with-id-cloakroom"),
    hour: 22,
    hours: 6,
    capacity: 900,
    seated: false,
    base: 3000,
  },
  {
    key: "museum-night",
    name: msg("shop.catalogue.museum-night"),
    summary: msg("shop.catalogue.guided-tours-music-and-food-until"),
    description: msg("shop.catalogue.timed-tickets-entry-at-the-chosen"),
    hour: 18,
    hours: 1,
    capacity: 150,
    seated: false,
    base: 2000,
  },
];

/** Deterministic 26-character id tail from a label (ids stay stable across restarts and sessions). */
function stableId(prefix: string, label: string): string {
  const alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193;
  let out = "01JD";
  for (let round = 0; out.length < 26; round++) {
    for (let i = 0; i < label.length; i++) {
      h1 = Math.imul(h1 ^ label.charCodeAt(i), 16777619) >>> 0;
      h2 = Math.imul(h2 ^ (label.charCodeAt(i) + round), 2246822519) >>> 0;
    }
    out += `${alphabet[h1 % 32]}${alphabet[h2 % 32]}`;
  }
  return `${prefix}_${out.slice(0, 26)}`;
}

/** Survey ids used by events that ask questions at checkout (the survey section seeds the same ids). */
export const SEEDED_SURVEY_IDS = ["srv_festival", "srv_conference"];

/** Builds the default catalogue with dates starting the day after `now`. */
export function defaultCatalogue(now: number): Catalogue {
  const day = 86_400_000;
  const today = new Date(now);
  const base = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
  const events: CatalogueEvent[] = [];
  let index = 0;
  for (const kind of KINDS) {
    for (const venue of VENUES) {
      index++;
      const slug = `${kind.key}-${(typeof venue.name === "string"
        ? venue.name
        : pickText(venue.name, "en-GB") || "venue"
      )
        .toLowerCase()
        .normalize("NFD")
        .replace(/[\u0300-\u036f]/g, "")
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, "")}`;
      const id = index === 1 ? "evt_01JD3Y5V7W9X1Y3Z5A7B9C1D3E" : stableId("evt", slug);
      const firstDay = base + (1 + ((index * 3) % 40)) * day;
      const slotCount = kind.key === "museum-night" ? 4 : index % 3 === 0 ? 2 : 1;
      const slots: CatalogueSlot[] = [];
      for (let s = 0; s < slotCount; s++) {
        // Zurich local hour ≈ UTC + 1 in winter; the mock keeps UTC times exact and simple.
        const start =
          kind.key === "museum-night"
            ? firstDay + (kind.hour - 1 + s) * 3_600_000
            : firstDay + s * 7 * day + (kind.hour - 1) * 3_600_000;
        slots.push({
          id: index === 1 && s === 0 ? "slt_01JD3Y6F8G0H2J4K6M8N0P2Q4R" : stableId("slt", `${slug}#${s}`),
          startsAt: new Date(start).toISOString().replace(".000Z", "Z"),
          endsAt: new Date(start + kind.hours * 3_600_000).toISOString().replace(".000Z", "Z"),
          capacity: kind.capacity,
        });
      }
      const price = (minor: number) => ({ CHF: minor, EUR: Math.round((minor * 1.05) / 50) * 50 });
      const assortments: CatalogueAssortment[] = kind.seated
        ? [
            {
              id: stableId("asr", `${slug}#cat1`),
              name: msg("shop.catalogue.category-1"),
              articles: [
                {
                  id: stableId("art", `${slug}#cat1-adult`),
                  slug: "cat1-adult",
                  name: msg("shop.catalogue.adult"),
                  description: msg("shop.catalogue.best-view-front-stalls"),
                  price: price(kind.base + 3000),
                  maxPerOrder: 8,
                },
                {
                  id: stableId("art", `${slug}#cat1-child`),
                  slug: "cat1-child",
                  name: msg("shop.catalogue.child-under-16"),
                  description: msg("shop.catalogue.only-with-an-accompanying-adult"),
                  price: price(Math.round((kind.base + 3000) / 2)),
                  maxPerOrder: 6,
                },
              ],
            },
            {
              id: stableId("asr", `${slug}#cat2`),
              name: msg("shop.catalogue.category-2"),
              articles: [
                {
                  id: stableId("art", `${slug}#cat2-adult`),
                  slug: "cat2-adult",
                  name: msg("shop.catalogue.adult"),
                  description: msg("shop.catalogue.balcony-free-seating-within-the-category"),
                  price: price(kind.base),
                  maxPerOrder: 10,
                },
              ],
            },
          ]
        : [
            {
              id: index === 1 ? "asr_01JD3Y6Z1A3B5C7D9E1F3G5H7J" : stableId("asr", `${slug}#standing`),
              name: msg("shop.catalogue.standing"),
              articles: [
                {
                  id: index === 1 ? "art_01JD3Y7A1B2C3D4E5F6G7H8J9K" : stableId("art", `${slug}#adult`),
                  slug: "adult",
                  name: msg("shop.catalogue.adult"),
                  description: msg("shop.catalogue.standing-ticket-free-choice-of-place"),
                  price: price(kind.base),
                  maxPerOrder: 10,
                },
                {
                  id: index === 1 ? "art_01JD3Y7B2C3D4E5F6G7H8J9K0M" : stableId("art", `${slug}#student`),
                  slug: "student",
                  name: msg("shop.catalogue.student"),
                  description: msg("shop.catalogue.valid-with-a-student-card-shown"),
                  price: price(Math.round(kind.base * 0.6)),
                  maxPerOrder: 4,
                },
              ],
            },
          ];
      events.push({
        id,
        slug,
        venueId: venue.id,
        name: kind.name,
        summary: kind.summary,
        description: kind.description,
        slots,
        pricingAssortments: assortments,
        surveyId: index % 5 === 1 ? (SEEDED_SURVEY_IDS[((index / 5) % 2) | 0] ?? null) : null,
      });
    }
  }
  return { venues: VENUES, events };
}

/**
 * A seed text as the world keeps it: a message reference as is; one string for every culture; texts by culture
 * (a culture without one falls back to the default culture's, then to any, when picked).
 */
export function localize(value: SeedText | undefined): LocalizedText {
  if (value === undefined) return { [DEFAULT_CULTURE]: "" };
  if (typeof value === "string") return { [DEFAULT_CULTURE]: value };
  return value;
}
