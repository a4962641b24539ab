/**
 * The default seeded catalogue: 24 events across 4 venues, each with slots, pricing assortments and
 * articles, expanded from the seed data `seed/catalogue.json`; every text in every culture (message files). Ids are
 * fixed, dates are relative to the session clock's "today", so the catalogue is always in the future.
 */

import { DEFAULT_CULTURE } from "../../core/culture.ts";
import { pickText } from "../../core/messages.ts";
import type { LocalizedText } from "../../core/types.ts";
import seedJson from "./seed/catalogue.json" with { type: "json" };

/** Text in a seed file: one string for every culture, texts by culture tag, or a message reference. */
export type SeedText = string | LocalizedText;

export type Currency = "CHF" | "EUR";

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

/**
 * The built-in seed as data: `seed/catalogue.json` (checked against `seed/catalogue.schema.json` by a test) holds
 * the venues, the kinds of event, the pricing templates and the ids the contract's examples use; the code below
 * only expands it (every kind at every venue, dates from the clock's today). Texts are message references
 * (`{"$msg": key}`, one text per culture in src/messages) or one string for every culture.
 */
export interface CatalogueSeed {
  venues: CatalogueVenue[];
  kinds: Kind[];
  assortments: { seated: AssortmentTemplate[]; standing: AssortmentTemplate[] };
  /** EUR price = CHF price × this, rounded to 50 minor units. */
  eurPerChf: number;
  /** The ids of the first event (the contract's examples name them). */
  pinned: { event: string; slot: string; assortment: string; articles: Record<string, string> };
}

interface Kind {
  key: string;
  name: SeedText;
  summary: SeedText;
  description: SeedText;
  /** Start hour (local), duration hours. */
  hour: number;
  hours: number;
  capacity: number;
  seated: boolean;
  /** The base CHF price in minor units. */
  base: number;
}

interface AssortmentTemplate {
  key: string;
  name: SeedText;
  articles: {
    slug: string;
    name: SeedText;
    description: SeedText;
    /** CHF minor units = round((kind.base + add) × factor). */
    price: { add?: number; factor?: number };
    maxPerOrder: number;
  }[];
}

const SEED = seedJson as CatalogueSeed;

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
  const { venues, kinds, pinned } = SEED;
  for (const kind of kinds) {
    for (const venue of venues) {
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
      const first = index === 1;
      const id = first ? pinned.event : stableId("evt", slug);
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
          id: first && s === 0 ? pinned.slot : stableId("slt", `${slug}#${s}`),
          startsAt: new Date(start).toISOString().replace(".000Z", "Z"),
          endsAt: new Date(start + kind.hours * 3_600_000).toISOString().replace(".000Z", "Z"),
          capacity: kind.capacity,
        });
      }
      const price = (minor: number) => ({
        CHF: minor,
        EUR: Math.round((minor * SEED.eurPerChf) / 50) * 50,
      });
      const templates = kind.seated ? SEED.assortments.seated : SEED.assortments.standing;
      const assortments: CatalogueAssortment[] = templates.map((template) => ({
        id: first && !kind.seated ? pinned.assortment : stableId("asr", `${slug}#${template.key}`),
        name: template.name,
        articles: template.articles.map((article) => ({
          id: (first && pinned.articles[article.slug]) || stableId("art", `${slug}#${article.slug}`),
          slug: article.slug,
          name: article.name,
          description: article.description,
          price: price(Math.round((kind.base + (article.price.add ?? 0)) * (article.price.factor ?? 1))),
          maxPerOrder: article.maxPerOrder,
        })),
      }));
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
  return { venues, events };
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
