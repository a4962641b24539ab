import { DEFAULT_CULTURE } from "../../core/culture.ts";
import { msg, pickText } from "../../core/messages.ts";
import type { LocalizedText, World } from "../../core/types.ts";
import { shopEvents, shopVenues } from "../shared/shop-view.ts";
import type { RasterRecipe } from "./raster.ts";

export type ImageSource =
  | { kind: "svg"; svg: string }
  | { kind: "raster"; recipe: RasterRecipe; original: "image/png" };

export interface ImageRecord {
  id: string;
  kind: "logo" | "banner" | "image";
  alt: LocalizedText;
  eventId: string | null;
  venueId: string | null;
  createdAt: string;
  source: ImageSource;
}

/** A palette to give each venue and event its own colours, picked by a stable hash of the id. */
export const PALETTE = [
  { primary: "#0b5fff", accent: "#ff7a00" },
  { primary: "#7a1fa2", accent: "#ffb300" },
  { primary: "#00796b", accent: "#ff5252" },
  { primary: "#c62828", accent: "#1e88e5" },
  { primary: "#2e3a59", accent: "#00bfa5" },
  { primary: "#ad1457", accent: "#43a047" },
];

export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function paletteFor(id: string): (typeof PALETTE)[number] {
  return PALETTE[hash(id) % PALETTE.length] as (typeof PALETTE)[number];
}

function xml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function logoSvg(label: string, fill: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80" viewBox="0 0 240 80"><rect width="240" height="80" rx="12" fill="${fill}"/><text x="120" y="50" font-family="Helvetica, Arial, sans-serif" font-size="${label.length > 16 ? 18 : 26}" font-weight="700" text-anchor="middle" fill="#ffffff">${xml(label)}</text></svg>`;
}

/**
 * An event banner as SVG (960×320): the event's gradient with soft discs. SVG keeps the catalogue cheap to describe
 * (`bytes` needs the exact size) and sharp at any width. Banners are decorative and carry no text: text in an image
 * is neither translated with Accept-Language nor kept when a host crops the banner to its own aspect ratio (the
 * shop shows the localized name beside it).
 */
function bannerSvg(from: string, to: string, seed: number): string {
  let a = seed >>> 0;
  const rand = () => {
    a = (Math.imul(a ^ (a >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return a / 4294967296;
  };
  const discs = Array.from(
    { length: 6 },
    () =>
      `<circle cx="${Math.round(rand() * 960)}" cy="${Math.round(rand() * 320)}" r="${Math.round(30 + rand() * 90)}" fill="#ffffff" fill-opacity="${(0.08 + rand() * 0.14).toFixed(2)}"/>`,
  ).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="960" height="320" viewBox="0 0 960 320"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs><rect width="960" height="320" fill="url(#g)"/>${discs}</svg>`;
}

const SEEDED = "2026-01-01T00:00:00Z";

/** The default theme's images. */
export const DEFAULT_IMAGES: ImageRecord[] = [
  {
    id: "ast_entradaLogo",
    kind: "logo",
    alt: msg("assets.catalogue.entrada-logo"),
    eventId: null,
    venueId: null,
    createdAt: SEEDED,
    source: { kind: "svg", svg: logoSvg("Entrada", "#0b5fff") },
  },
  {
    id: "ast_defaultBanner",
    kind: "banner",
    alt: msg("assets.catalogue.blue-and-orange-gradient"),
    eventId: null,
    venueId: null,
    createdAt: SEEDED,
    source: {
      kind: "raster",
      original: "image/png",
      recipe: { width: 960, height: 320, from: "#0b5fff", to: "#ff7a00", seed: 1 },
    },
  },
  {
    id: "ast_foyer",
    kind: "image",
    alt: msg("assets.catalogue.foyer-in-warm-light"),
    eventId: null,
    venueId: null,
    createdAt: SEEDED,
    source: {
      kind: "raster",
      original: "image/png",
      recipe: { width: 640, height: 427, from: "#3e2723", to: "#ffcc80", seed: 7 },
    },
  },
];

const suffix = (id: string) => id.replace(/^[a-z]+_/, "");

/** Images derived from a shop catalogue, by the identity of its `events` and `venues` objects (seeded once). */
const derived = new WeakMap<
  object,
  { venues: unknown; images: ImageRecord[]; byId: Map<string, ImageRecord> }
>();

function catalogueImages(world: World): { images: ImageRecord[]; byId: Map<string, ImageRecord> } {
  const shop = world.shop as { events?: unknown; venues?: unknown } | undefined;
  const events = shop?.events;
  const key = typeof events === "object" && events !== null ? events : null;
  const cached = key ? derived.get(key) : undefined;
  if (cached && cached.venues === shop?.venues) return cached;
  const images = buildImages(world);
  const entry = { venues: shop?.venues, images, byId: new Map(images.map((i) => [i.id, i])) };
  if (key) derived.set(key, entry);
  return entry;
}

/**
 * Every image: the default ones, a logo per shop venue and a banner per shop event (ids derived from theirs).
 * Built once per seeded catalogue (the shop's venues and events do not change after seeding).
 */
export function allImages(world: World): ImageRecord[] {
  return catalogueImages(world).images;
}

/** One image by id, or undefined (O(1) after the first call per catalogue). */
export function imageById(world: World, id: string): ImageRecord | undefined {
  return catalogueImages(world).byId.get(id);
}

function buildImages(world: World): ImageRecord[] {
  const venues = shopVenues(world).map((v): ImageRecord => {
    const name = v.name;
    return {
      id: venueLogoId(v.id),
      kind: "logo",
      alt: msg("assets.catalogue.venue-logo", { name }),
      eventId: null,
      venueId: v.id,
      createdAt: SEEDED,
      source: {
        kind: "svg",
        svg: logoSvg(
          typeof name === "string" ? name : pickText(name, DEFAULT_CULTURE),
          paletteFor(v.id).primary,
        ),
      },
    };
  });
  const events = shopEvents(world).map((e): ImageRecord => {
    const name = e.name;
    const colors = paletteFor(e.id);
    return {
      id: eventBannerId(e.id),
      kind: "banner",
      alt: msg("assets.catalogue.event-banner", { name }),
      eventId: e.id,
      venueId: e.venueId,
      createdAt: SEEDED,
      source: { kind: "svg", svg: bannerSvg(colors.primary, colors.accent, hash(e.id)) },
    };
  });
  return [...DEFAULT_IMAGES, ...venues, ...events];
}

export function eventBannerId(eventId: string): string {
  return `ast_${suffix(eventId)}B`;
}

export function venueLogoId(venueId: string): string {
  return `ast_${suffix(venueId)}L`;
}
