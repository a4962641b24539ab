/**
 * The default seeded catalogue: 24 events across 4 venues, each with slots, pricing assortments and
 * articles, every text in de-CH, fr-CH, it-CH and en-GB. Ids are fixed, dates are relative to the
 * session clock's "today", so the catalogue is always in the future.
 */
import { t } from "../../core/culture.ts";
import type { LocalizedText } from "../../core/types.ts";

export type Currency = "CHF" | "EUR";

/** Text in a seed file: one string for every culture, or one per culture. */
export type SeedText = string | Partial<LocalizedText>;

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
    city: t("Zürich", "Zurich", "Zurigo", "Zurich"),
  },
  { id: "ven_01JD3XR3S5T7V9W1X3Y5Z7A9B1", name: "Bierhübeli", city: t("Bern", "Berne", "Berna", "Bern") },
  {
    id: "ven_01JD3XS4T6V8W0X2Y4Z6A8B0C2",
    name: t(
      "Kultur- und Kongresszentrum Luzern",
      "Centre de culture et de congrès Lucerne",
      "Centro di cultura e congressi Lucerna",
      "Lucerne Culture and Congress Centre",
    ),
    city: t("Luzern", "Lucerne", "Lucerna", "Lucerne"),
  },
  {
    id: "ven_01JD3XT5V7W9X1Y3Z5A7B9C1D3",
    name: t("Théâtre du Léman", "Théâtre du Léman", "Théâtre du Léman", "Théâtre du Léman"),
    city: t("Genf", "Genève", "Ginevra", "Geneva"),
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
    name: t("Jazznacht", "Nuit du jazz", "Notte jazz", "Jazz Night"),
    summary: t(
      "Schweizer und internationale Jazz-Trios, zwei Sets pro Abend.",
      "Trios de jazz suisses et internationaux, deux sets par soir.",
      "Trii jazz svizzeri e internazionali, due set a sera.",
      "Swiss and international jazz trios, two sets a night.",
    ),
    description: t(
      "Drei Trios, je zwei Sets, danach Jam-Session in der Bar. Türöffnung 18:30.",
      "Trois trios, deux sets chacun, puis jam session au bar. Ouverture des portes à 18 h 30.",
      "Tre trii, due set ciascuno, poi jam session al bar. Apertura porte alle 18:30.",
      "Three trios, two sets each, then a late jam session in the bar. Doors open at 18:30.",
    ),
    hour: 19,
    hours: 3.5,
    capacity: 450,
    seated: false,
    base: 4500,
  },
  {
    key: "symphony-evening",
    name: t("Sinfoniekonzert", "Concert symphonique", "Concerto sinfonico", "Symphony Evening"),
    summary: t(
      "Beethoven und Brahms mit dem Festivalorchester.",
      "Beethoven et Brahms avec l'orchestre du festival.",
      "Beethoven e Brahms con l'orchestra del festival.",
      "Beethoven and Brahms with the festival orchestra.",
    ),
    description: t(
      "Ein Abend mit der fünften Sinfonie und dem Violinkonzert. Einführung 45 Minuten vor Beginn.",
      "Une soirée avec la cinquième symphonie et le concerto pour violon. Introduction 45 minutes avant le début.",
      "Una serata con la quinta sinfonia e il concerto per violino. Introduzione 45 minuti prima dell'inizio.",
      "An evening with the Fifth Symphony and the Violin Concerto. Introduction 45 minutes before the start.",
    ),
    hour: 19,
    hours: 2.5,
    capacity: 1200,
    seated: true,
    base: 6500,
  },
  {
    key: "comedy-club",
    name: t("Comedy Club", "Club de comédie", "Comedy club", "Comedy Club"),
    summary: t(
      "Stand-up in vier Sprachen, ein Mikrofon.",
      "Du stand-up en quatre langues, un micro.",
      "Stand-up in quattro lingue, un microfono.",
      "Stand-up in four languages, one microphone.",
    ),
    description: t(
      "Fünf Comedians, je zwanzig Minuten. Ab 16 Jahren.",
      "Cinq humoristes, vingt minutes chacun. Dès 16 ans.",
      "Cinque comici, venti minuti ciascuno. Dai 16 anni.",
      "Five comedians, twenty minutes each. Ages 16 and up.",
    ),
    hour: 20,
    hours: 2,
    capacity: 300,
    seated: false,
    base: 3500,
  },
  {
    key: "family-theatre",
    name: t("Familientheater", "Théâtre en famille", "Teatro per famiglie", "Family Theatre"),
    summary: t(
      "Ein Märchen für Gross und Klein.",
      "Un conte pour petits et grands.",
      "Una fiaba per grandi e piccini.",
      "A fairy tale for young and old.",
    ),
    description: t(
      "Sechzig Minuten ohne Pause, geeignet ab 5 Jahren.",
      "Soixante minutes sans entracte, dès 5 ans.",
      "Sessanta minuti senza pausa, adatto dai 5 anni.",
      "Sixty minutes without an interval, suitable from age 5.",
    ),
    hour: 14,
    hours: 1,
    capacity: 250,
    seated: true,
    base: 2500,
  },
  {
    key: "electronic-night",
    name: t("Elektronische Nacht", "Nuit électronique", "Notte elettronica", "Electronic Night"),
    summary: t(
      "Drei Floors, zwölf DJs, bis in den Morgen.",
      "Trois scènes, douze DJ, jusqu'au matin.",
      "Tre piste, dodici DJ, fino al mattino.",
      "Three floors, twelve DJs, until morning.",
    ),
    description: t(
      "Einlass ab 18 Jahren mit Ausweis. Garderobe inklusive.",
      "Entrée dès 18 ans avec pièce d'identité. Vestiaire compris.",
      "Ingresso dai 18 anni con documento. Guardaroba incluso.",
      "Entry from 18 with ID. Cloakroom included.",
    ),
    hour: 22,
    hours: 6,
    capacity: 900,
    seated: false,
    base: 3000,
  },
  {
    key: "museum-night",
    name: t("Museumsnacht", "Nuit des musées", "Notte dei musei", "Museum Night"),
    summary: t(
      "Führungen, Musik und Kulinarik bis Mitternacht.",
      "Visites guidées, musique et gastronomie jusqu'à minuit.",
      "Visite guidate, musica e gastronomia fino a mezzanotte.",
      "Guided tours, music and food until midnight.",
    ),
    description: t(
      "Zeitfenster-Tickets: Einlass zur gewählten Zeit, Aufenthalt unbegrenzt.",
      "Billets à créneau : entrée à l'heure choisie, durée de visite libre.",
      "Biglietti a fascia oraria: ingresso all'ora scelta, permanenza libera.",
      "Timed tickets: entry at the chosen time, stay as long as you like.",
    ),
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
        : (venue.name["en-GB"] ?? "venue")
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
              name: t("Kategorie 1", "Catégorie 1", "Categoria 1", "Category 1"),
              articles: [
                {
                  id: stableId("art", `${slug}#cat1-adult`),
                  slug: "cat1-adult",
                  name: t("Erwachsene", "Adulte", "Adulto", "Adult"),
                  description: t(
                    "Beste Sicht, Parkett vorne.",
                    "Meilleure vue, parterre avant.",
                    "Vista migliore, platea anteriore.",
                    "Best view, front stalls.",
                  ),
                  price: price(kind.base + 3000),
                  maxPerOrder: 8,
                },
                {
                  id: stableId("art", `${slug}#cat1-child`),
                  slug: "cat1-child",
                  name: t(
                    "Kind (bis 16)",
                    "Enfant (jusqu'à 16 ans)",
                    "Bambino (fino a 16 anni)",
                    "Child (under 16)",
                  ),
                  description: t(
                    "Nur in Begleitung Erwachsener.",
                    "Uniquement accompagné d'un adulte.",
                    "Solo accompagnato da un adulto.",
                    "Only with an accompanying adult.",
                  ),
                  price: price(Math.round((kind.base + 3000) / 2)),
                  maxPerOrder: 6,
                },
              ],
            },
            {
              id: stableId("asr", `${slug}#cat2`),
              name: t("Kategorie 2", "Catégorie 2", "Categoria 2", "Category 2"),
              articles: [
                {
                  id: stableId("art", `${slug}#cat2-adult`),
                  slug: "cat2-adult",
                  name: t("Erwachsene", "Adulte", "Adulto", "Adult"),
                  description: t(
                    "Balkon, freie Platzwahl in der Kategorie.",
                    "Balcon, placement libre dans la catégorie.",
                    "Balconata, posto libero nella categoria.",
                    "Balcony, free seating within the category.",
                  ),
                  price: price(kind.base),
                  maxPerOrder: 10,
                },
              ],
            },
          ]
        : [
            {
              id: index === 1 ? "asr_01JD3Y6Z1A3B5C7D9E1F3G5H7J" : stableId("asr", `${slug}#standing`),
              name: t("Stehplatz", "Place debout", "Posto in piedi", "Standing"),
              articles: [
                {
                  id: index === 1 ? "art_01JD3Y7A1B2C3D4E5F6G7H8J9K" : stableId("art", `${slug}#adult`),
                  slug: "adult",
                  name: t("Erwachsene", "Adulte", "Adulto", "Adult"),
                  description: t(
                    "Stehplatz, freie Platzwahl.",
                    "Place debout, placement libre.",
                    "Posto in piedi, posto libero.",
                    "Standing ticket, free choice of place.",
                  ),
                  price: price(kind.base),
                  maxPerOrder: 10,
                },
                {
                  id: index === 1 ? "art_01JD3Y7B2C3D4E5F6G7H8J9K0M" : stableId("art", `${slug}#student`),
                  slug: "student",
                  name: t("Studierende", "Étudiant·e", "Studente", "Student"),
                  description: t(
                    "Gültig mit Legi, Kontrolle am Eingang.",
                    "Valable avec carte d'étudiant, contrôlée à l'entrée.",
                    "Valido con tessera studenti, controllata all'ingresso.",
                    "Valid with a student card, shown at entry.",
                  ),
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

export function localize(value: SeedText | undefined): LocalizedText {
  if (value === undefined) return t("", "", "", "");
  if (typeof value === "string") return t(value, value, value, value);
  const fallback = value["de-CH"] ?? value["en-GB"] ?? Object.values(value)[0] ?? "";
  return {
    "de-CH": value["de-CH"] ?? fallback,
    "fr-CH": value["fr-CH"] ?? fallback,
    "it-CH": value["it-CH"] ?? fallback,
    "en-GB": value["en-GB"] ?? fallback,
  };
}
