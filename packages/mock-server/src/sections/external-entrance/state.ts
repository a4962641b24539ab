import { positiveInt } from "../../core/seed-values.ts";
import type { World } from "../../core/types.ts";

export interface ExternalTicketRecord {
  id: string;
  vendor: string;
  externalId: string;
  quicode: string;
  eventId: string;
  holderName: string | null;
  validFrom: string | null;
  validUntil: string | null;
  status: "valid" | "used" | "cancelled";
  importId: string;
  importedAt: string;
  /** What makes a re-sent line identical (internal, not in responses). */
  fingerprint: string;
}

export interface ImportLineErrorRecord {
  pointer: string;
  code:
    | "unknown_event"
    | "quicode_conflict"
    | "invalid_validity"
    | "duplicate_in_batch"
    | "changed_duplicate";
  /** Parameters for the localized detail. */
  args: Record<string, string | number>;
}

export interface ExternalImportRecord {
  id: string;
  vendor: string;
  status: "processing" | "completed";
  lineCount: number;
  counts: { accepted: number; duplicate: number; rejected: number };
  errors: ImportLineErrorRecord[];
  createdAt: string;
  completedAt: string | null;
}

export interface ExternalEntranceState {
  imports: Record<string, ExternalImportRecord>;
  /** Import ids in creation order. */
  importOrder: string[];
  tickets: Record<string, ExternalTicketRecord>;
  /** Ticket ids in creation order. */
  ticketOrder: string[];
  /** Quicode → ticket id. */
  byQuicode: Record<string, string>;
  /** `${vendor}\n${externalId}` → ticket id. */
  byExternalId: Record<string, string>;
  /** Most imported tickets kept (seed `externalEntrance.maxTickets`). Optional for old snapshots. */
  maxTickets?: number;
  /** Most import reports kept (seed `externalEntrance.maxImports`). Optional for old snapshots. */
  maxImports?: number;
}

export const DEFAULT_MAX_EXTERNAL_TICKETS = 50_000;
export const DEFAULT_MAX_IMPORTS = 10_000;

export const EXTERNAL_ENTRANCE = "externalEntrance";

export function initialExternalEntranceState(seed?: Record<string, unknown>): ExternalEntranceState {
  return {
    imports: {},
    importOrder: [],
    tickets: {},
    ticketOrder: [],
    byQuicode: {},
    byExternalId: {},
    maxTickets: positiveInt(seed?.maxTickets, DEFAULT_MAX_EXTERNAL_TICKETS),
    maxImports: positiveInt(seed?.maxImports, DEFAULT_MAX_IMPORTS),
  };
}

/**
 * Keeps the caps after an import: the oldest tickets go first (with their Quicode and vendor-id entries, so the
 * same vendor ticket can be imported again), then the oldest import reports. O(cap) once per import request.
 */
export function enforceExternalCaps(state: ExternalEntranceState): void {
  const overTickets = state.ticketOrder.length - (state.maxTickets ?? DEFAULT_MAX_EXTERNAL_TICKETS);
  if (overTickets > 0)
    for (const id of state.ticketOrder.splice(0, overTickets)) {
      const ticket = state.tickets[id];
      if (!ticket) continue;
      delete state.tickets[id];
      if (state.byQuicode[ticket.quicode] === id) delete state.byQuicode[ticket.quicode];
      const key = `${ticket.vendor}\n${ticket.externalId}`;
      if (state.byExternalId[key] === id) delete state.byExternalId[key];
    }
  const overImports = state.importOrder.length - (state.maxImports ?? DEFAULT_MAX_IMPORTS);
  if (overImports > 0) for (const id of state.importOrder.splice(0, overImports)) delete state.imports[id];
}

/** Records the section keeps (for the engine-wide `maxRetainedRecords`), O(1). */
export function retainedExternalRecords(state: ExternalEntranceState): number {
  return state.ticketOrder.length + state.importOrder.length;
}

export function externalSlice(world: World): ExternalEntranceState {
  let slice = world[EXTERNAL_ENTRANCE] as ExternalEntranceState | undefined;
  if (!slice) {
    slice = initialExternalEntranceState();
    world[EXTERNAL_ENTRANCE] = slice;
  }
  return slice;
}

/** The imported ticket with exactly this payload, if any. */
export function externalTicketByQuicode(world: World, quicode: string): ExternalTicketRecord | null {
  const slice = world[EXTERNAL_ENTRANCE] as ExternalEntranceState | undefined;
  if (!slice) return null;
  const id = slice.byQuicode[quicode];
  return id ? (slice.tickets[id] ?? null) : null;
}
