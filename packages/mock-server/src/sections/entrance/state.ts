import type { components } from "@entrada/openapi/schema";
import { Kept } from "../../core/kept.ts";
import { msg } from "../../core/messages.ts";
import { positiveInt } from "../../core/seed-values.ts";
import type { LocalizedText, World } from "../../core/types.ts";
import { compact } from "../shared/fifo.ts";
import { shopEvents, shopVenues } from "../shared/shop-view.ts";

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

/** Admissions, exits and denials of one gate or one event; exact however many scans the log has dropped. */
export interface ScanCounts {
  admitted: number;
  exited: number;
  denied: number;
}

export interface EventOccupancy extends ScanCounts {
  /** The latest scan of the event (ISO time). */
  latest: string | null;
  byGate: Record<string, ScanCounts>;
}

/** Most scans and exits a session's log keeps (seed `entrance.maxScans`); the oldest go first. */
export const DEFAULT_MAX_SCANS = 100_000;

export interface EntranceState {
  categories: QuicodeCategoryRecord[];
  /** Explicit gates from the seed; when null, gates are derived from the shop's venues. */
  gates: GateRecord[] | null;
  /** The most recent scans and exits in the order received (at most `maxScans`; `logScan` appends). */
  scans: ScanRecord[];
  /** Who is inside, by ticket id (at most `maxScans` tickets, oldest admitted first out). */
  presence: Record<string, Presence>;
  /** Entries of `presence`. Optional for old snapshots. */
  presenceCount?: number;
  /**
   * The keys of `presence` from `presenceHead` on, oldest first: which entry the cap drops next, in O(1) (a
   * `for…in` over 100 000 keys costs milliseconds). Optional for old snapshots (rebuilt from `presence`).
   */
  presenceOrder?: string[];
  presenceHead?: number;
  /** Occupancy per event, counted as scans arrive. Optional for old snapshots (rebuilt from the log). */
  occupancy?: Record<string, EventOccupancy>;
  /** Cap of the scan log and of `presence`. Optional for old snapshots. */
  maxScans?: number;
  /** Most custom Quicode categories (beyond: 409). Optional for old snapshots. */
  maxCategories?: number;
}

/** Most custom Quicode categories a session keeps (seed `entrance.maxCategories`). */
export const DEFAULT_MAX_CATEGORIES = 200;

export const ENTRANCE = "entrance";

export const BUILT_IN_CATEGORIES: readonly QuicodeCategoryRecord[] = [
  {
    id: "qcc_01JDX0SH0PT1CKETS00000000A",
    name: msg("bi.history.shop-tickets"),
    pattern: "^Q1\\.tkt_[0-9A-Za-z]+\\.[0-9A-Za-z]+$",
    description: msg("entrance.state.tickets-issued-by-this-shop"),
    builtIn: true,
    createdAt: "2026-01-01T00:00:00Z",
  },
  {
    id: "qcc_01JDX0EXTERNA1T1CKETS00000B",
    name: msg("bi.history.external-tickets"),
    pattern: "^(?!Q1\\.).+$",
    description: msg("entrance.state.tickets-imported-from-external-registration-vendors"),
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
    presenceCount: 0,
    presenceOrder: [],
    presenceHead: 0,
    occupancy: {},
    maxScans: positiveInt(seed?.maxScans, DEFAULT_MAX_SCANS),
    maxCategories: positiveInt(seed?.maxCategories, DEFAULT_MAX_CATEGORIES),
  };
}

/** Occupancy counters by event id (rebuilt from the log for an old snapshot that has none). */
export function occupancies(state: EntranceState): Record<string, EventOccupancy> {
  if (!state.occupancy) {
    state.occupancy = {};
    for (const record of state.scans) count(state, record);
  }
  return state.occupancy;
}

/** The event's occupancy counters, created on its first scan. */
function occupancyOf(state: EntranceState, eventId: string): EventOccupancy {
  const all = occupancies(state);
  let counts = all[eventId];
  if (!counts) {
    counts = { admitted: 0, exited: 0, denied: 0, latest: null, byGate: {} };
    all[eventId] = counts;
  }
  return counts;
}

function count(state: EntranceState, record: ScanRecord): void {
  if (record.eventId === null) return;
  const event = occupancyOf(state, record.eventId);
  let gate = event.byGate[record.gateId];
  if (!gate) {
    gate = { admitted: 0, exited: 0, denied: 0 };
    event.byGate[record.gateId] = gate;
  }
  const field = record.result === "rejected" ? null : record.result;
  if (field) {
    event[field]++;
    gate[field]++;
  }
  if (event.latest === null || record.at > event.latest) event.latest = record.at;
}

/**
 * Appends a scan or exit to the log and counts it. Beyond `maxScans` the oldest quarter of the cap goes at once
 * (amortized O(1) a scan); occupancy is counted apart, so it stays exact. Reports and gate lists cover the log.
 */
export function logScan(state: EntranceState, record: ScanRecord): void {
  count(state, record);
  state.scans.push(record);
  const max = state.maxScans ?? DEFAULT_MAX_SCANS;
  if (state.scans.length > max + Math.ceil(max / 4)) state.scans.splice(0, state.scans.length - max);
}

/** Records that a ticket is inside (or left); the oldest entry goes beyond `maxScans` tickets, in O(1). */
export function setPresence(state: EntranceState, ticketId: string, presence: Presence): void {
  if (!(ticketId in state.presence)) {
    state.presenceOrder ??= Object.keys(state.presence);
    const order = state.presenceOrder;
    let head = state.presenceHead ?? 0;
    order.push(ticketId);
    if (order.length - head > (state.maxScans ?? DEFAULT_MAX_SCANS)) {
      delete state.presence[order[head++] as string];
    }
    // Compacted once the dropped front is the larger part: amortized O(1) a ticket.
    [state.presenceOrder, head] = compact(order, head);
    state.presenceHead = head;
    state.presenceCount = state.presenceOrder.length - head;
  }
  state.presence[ticketId] = presence;
}

/** Records the section keeps (for the engine-wide `maxRetainedRecords`), O(1). */
export function retainedEntranceRecords(state: EntranceState): number {
  return state.scans.length + (state.presenceCount ?? 0);
}

export function entranceSlice(world: World): EntranceState {
  let slice = world[ENTRANCE] as EntranceState | undefined;
  if (!slice) {
    slice = initialEntranceState(undefined);
    world[ENTRANCE] = slice;
  }
  return slice;
}

const MAIN = msg("bi.history.main-entrance");
const EXIT = msg("bi.history.exit");

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

const compiled = new Kept<string, RegExp | null>(500);

function regex(pattern: string): RegExp | null {
  return compiled.get(pattern, compile);
}

function compile(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern);
  } catch {
    return null;
  }
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
