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
}

export const EXTERNAL_ENTRANCE = "externalEntrance";

export function initialExternalEntranceState(): ExternalEntranceState {
  return { imports: {}, importOrder: [], tickets: {}, ticketOrder: [], byQuicode: {}, byExternalId: {} };
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
