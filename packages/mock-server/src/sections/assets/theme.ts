import type { World } from "../../core/types.ts";
import { shopEvent, shopVenues } from "../shared/shop-view.ts";
import { eventBannerId, paletteFor, venueLogoId } from "./catalogue.ts";

export interface ThemeColors {
  primary: string;
  onPrimary: string;
  background: string;
  surface: string;
  text: string;
  accent: string;
}

/** Image fields are image ids here; the handler turns them into absolute URLs. */
export interface ThemeLayer {
  logoImageId?: string;
  bannerImageId?: string | null;
  colors?: Partial<ThemeColors>;
  fontFamily?: string;
  radius?: number;
}

export interface ThemeSeed {
  default?: ThemeLayer;
  channels?: Partial<Record<Channel, ThemeLayer>>;
  venues?: Record<string, ThemeLayer>;
  events?: Record<string, ThemeLayer>;
}

export type Channel = "web" | "widget" | "email" | "pdf";

const DEFAULT: Required<Omit<ThemeLayer, "colors">> & { colors: ThemeColors } = {
  logoImageId: "ast_entradaLogo",
  bannerImageId: "ast_defaultBanner",
  colors: {
    primary: "#0b5fff",
    onPrimary: "#ffffff",
    background: "#f7f8fa",
    surface: "#ffffff",
    text: "#1a1a1a",
    accent: "#ff7a00",
  },
  fontFamily: "Inter, Helvetica, Arial, sans-serif",
  radius: 8,
};

const CHANNELS: Record<Channel, ThemeLayer> = {
  web: {},
  widget: { radius: 12 },
  email: { fontFamily: "Helvetica, Arial, sans-serif", radius: 4, colors: { background: "#ffffff" } },
  pdf: {
    fontFamily: "Helvetica, Arial, sans-serif",
    radius: 0,
    colors: { background: "#ffffff", surface: "#ffffff" },
  },
};

export interface ResolvedTheme {
  logoImageId: string;
  bannerImageId: string | null;
  colors: ThemeColors;
  fontFamily: string;
  radius: number;
  resolvedFrom: { level: "event" | "venue" | "channel" | "default"; id: string | null }[];
}

/**
 * Resolve a theme field by field from the most specific layer that sets it: event, venue (the given one, else the
 * event's), channel, default. Every shop venue has a layer (its logo and primary colour) and every event one (its
 * banner and accent colour); seed layers are merged over those.
 * @returns null when the event or venue does not exist.
 */
export function resolveTheme(
  world: World,
  seed: ThemeSeed,
  input: { eventId?: string; venueId?: string; channel?: Channel },
): ResolvedTheme | "unknown-event" | "unknown-venue" {
  const layers: {
    level: ResolvedTheme["resolvedFrom"][number]["level"];
    id: string | null;
    layer: ThemeLayer;
  }[] = [];
  let venueId = input.venueId;
  if (input.eventId) {
    const event = shopEvent(world, input.eventId);
    if (!event) return "unknown-event";
    venueId ??= event.venueId ?? undefined;
    const derived: ThemeLayer = {
      bannerImageId: eventBannerId(event.id),
      colors: { accent: paletteFor(event.id).accent },
    };
    layers.push({ level: "event", id: event.id, layer: merge(derived, seed.events?.[event.id]) });
  }
  if (venueId) {
    const venue = shopVenues(world).find((v) => v.id === venueId);
    if (!venue) return "unknown-venue";
    const derived: ThemeLayer = {
      logoImageId: venueLogoId(venue.id),
      colors: { primary: paletteFor(venue.id).primary },
    };
    layers.push({ level: "venue", id: venue.id, layer: merge(derived, seed.venues?.[venue.id]) });
  }
  if (input.channel)
    layers.push({
      level: "channel",
      id: input.channel,
      layer: merge(CHANNELS[input.channel], seed.channels?.[input.channel]),
    });
  const base = merge(DEFAULT, seed.default) as typeof DEFAULT;
  layers.push({ level: "default", id: null, layer: base });

  const contributed = new Set<number>();
  const pick = <T>(get: (l: ThemeLayer) => T | undefined): T => {
    for (let i = 0; i < layers.length; i++) {
      const v = get((layers[i] as (typeof layers)[number]).layer);
      if (v !== undefined) {
        contributed.add(i);
        return v;
      }
    }
    throw new Error("the default theme layer sets every field");
  };
  const color = (k: keyof ThemeColors) => pick((l) => l.colors?.[k]);
  const theme = {
    logoImageId: pick((l) => l.logoImageId),
    bannerImageId: pick((l) => l.bannerImageId),
    colors: {
      primary: color("primary"),
      onPrimary: color("onPrimary"),
      background: color("background"),
      surface: color("surface"),
      text: color("text"),
      accent: color("accent"),
    },
    fontFamily: pick((l) => l.fontFamily),
    radius: pick((l) => l.radius),
  };
  return {
    ...theme,
    resolvedFrom: layers.filter((_, i) => contributed.has(i)).map(({ level, id }) => ({ level, id })),
  };
}

function merge(base: ThemeLayer, over: ThemeLayer | undefined): ThemeLayer {
  if (!over) return base;
  return { ...base, ...over, colors: { ...base.colors, ...over.colors } };
}
