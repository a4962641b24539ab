import type { components } from "@entrada/openapi/schema";
import { t } from "../../core/culture.ts";
import type { LocalizedText, World } from "../../core/types.ts";
import { shopEvents, shopVenues } from "./shop-view.ts";

export interface QuicodeCategoryRecord {
  id: string;
  /** Built-in categories have localized names; custom ones keep the integrator's text. */
  name: LocalizedText | string;
  pattern: string;
  description: LocalizedText | string;
  builtIn: boolean;
  createdAt: string;
}

export interface GateRecord {
  id: string;
  name: LocalizedText | string;
  venueId: string;
  /** Explicit events; null means every shop event at the venue. */
  eventIds: string[] | null;
  direction: "entry" | "exit" | "both";
  status: "open" | "closed";
}

export interface TicketSummaryRecord {
  id: string;
  source: "shop" | "external";
  vendor?: string;
  eventId: string;
  slotId: string | null;
  articleName: LocalizedText | string | null;
  holderName: string | null;
  validFrom: string | null;
  validUntil: string | null;
  status: "valid" | "used" | "cancelled";
}

/** Which way a scan went and its outcome: admissions are admitted/denied, exits exited/rejected. */
export type ScanOutcome =
  | {
      direction: "in";
      result: components["schemas"]["ScanResult"]["result"];
      reason: components["schemas"]["ScanResult"]["reason"];
    }
  | {
      direction: "out";
      result: components["schemas"]["ExitResult"]["result"];
      reason: components["schemas"]["ExitResult"]["reason"];
    };

export type ScanRecord = ScanFields & ScanOutcome;

interface ScanFields {
  id: string;
  gateId: string;
  eventId: string | null;
  quicode: string;
  /** For `already_used`: when the ticket was admitted (fills the reason text). */
  reasonAt: string | null;
  at: string;
  deviceId: string | null;
  ticket: TicketSummaryRecord | null;
  categoryId: string | null;
}

export interface Presence {
  inside: boolean;
  lastAdmittedAt: string | null;
}

export interface EntranceState {
  categories: QuicodeCategoryRecord[];
  /** Explicit gates from the seed; when null, gates are derived from the shop's venues. */
  gates: GateRecord[] | null;
  /** Every scan in the order received. */
  scans: ScanRecord[];
  /** Who is inside, by ticket id. */
  presence: Record<string, Presence>;
}

export const ENTRANCE = "entrance";

export const BUILT_IN_CATEGORIES: readonly QuicodeCategoryRecord[] = [
  {
    id: "qcc_01JDX0SH0PT1CKETS00000000A",
    name: t("Shop-Tickets", "Billets de la boutique", "Biglietti dello shop", "Shop tickets"),
    pattern: "^Q1\\.tkt_[0-9A-Za-z]+\\.[0-9A-Za-z]+$",
    description: t(
      "Von diesem Shop ausgestellte Tickets.",
      "Billets émis par cette boutique.",
      "Biglietti emessi da questo shop.",
      "Tickets issued by this shop.",
    ),
    builtIn: true,
    createdAt: "2026-01-01T00:00:00Z",
  },
  {
    id: "qcc_01JDX0EXTERNA1T1CKETS00000B",
    name: t("Externe Tickets", "Billets externes", "Biglietti esterni", "External tickets"),
    pattern: "^(?!Q1\\.).+$",
    description: t(
      "Importierte Tickets externer Registrierungsanbieter.",
      "Billets importés de prestataires d'inscription externes.",
      "Biglietti importati da fornitori di registrazione esterni.",
      "Tickets imported from external registration vendors.",
    ),
    builtIn: true,
    createdAt: "2026-01-01T00:00:00Z",
  },
];

export function initialEntranceState(seed: Record<string, unknown> | undefined): EntranceState {
  const custom = Array.isArray(seed?.categories) ? (seed.categories as QuicodeCategoryRecord[]) : [];
  return {
    categories: [...BUILT_IN_CATEGORIES.map((c) => ({ ...c })), ...structuredClone(custom)],
    gates: Array.isArray(seed?.gates) ? structuredClone(seed.gates as GateRecord[]) : null,
    scans: [],
    presence: {},
  };
}

export function entranceSlice(world: World): EntranceState {
  let slice = world[ENTRANCE] as EntranceState | undefined;
  if (!slice) {
    slice = initialEntranceState(undefined);
    world[ENTRANCE] = slice;
  }
  return slice;
}

const MAIN = t("Haupteingang", "Entrée principale", "Ingresso principale", "Main entrance");
const EXIT = t("Ausgang", "Sortie", "Uscita", "Exit");

/** Gates with their event lists resolved: the seeded ones, or a main entrance and an exit per shop venue. */
export function resolvedGates(world: World): (GateRecord & { eventIds: string[] })[] {
  const state = entranceSlice(world);
  const events = shopEvents(world);
  const eventsAt = (venueId: string) => events.filter((e) => e.venueId === venueId).map((e) => e.id);
  const gates: GateRecord[] =
    state.gates ??
    shopVenues(world).flatMap((venue) => {
      const suffix = venue.id.replace(/^ven_/, "");
      return [
        {
          id: `gte_${suffix}M`,
          name: MAIN,
          venueId: venue.id,
          eventIds: null,
          direction: "both" as const,
          status: "open" as const,
        },
        {
          id: `gte_${suffix}X`,
          name: EXIT,
          venueId: venue.id,
          eventIds: null,
          direction: "exit" as const,
          status: "open" as const,
        },
      ];
    });
  return gates.map((g) => ({ ...g, eventIds: g.eventIds ?? eventsAt(g.venueId) }));
}

const compiled = new Map<string, RegExp | null>();

function regex(pattern: string): RegExp | null {
  let re = compiled.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(pattern);
    } catch {
      re = null;
    }
    if (compiled.size > 500) compiled.clear();
    compiled.set(pattern, re);
  }
  return re;
}

/** The first category (in list order) whose pattern matches the scanned payload (`RegExp.test` on the whole string). */
export function classify(
  categories: readonly QuicodeCategoryRecord[],
  quicode: string,
): QuicodeCategoryRecord | null {
  for (const category of categories) {
    if (regex(category.pattern)?.test(quicode)) return category;
  }
  return null;
}
