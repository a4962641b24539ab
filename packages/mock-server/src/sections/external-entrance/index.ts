import { apiUrl } from "../../core/links.ts";
import { msg } from "../../core/messages.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import type { LocalizedText, OperationContext, World } from "../../core/types.ts";
import { DOORS_OPEN_BEFORE_MS } from "../entrance/admission.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";
import { shopEvent, shopTicketByQuicode } from "../shared/shop-view.ts";
import {
  EXTERNAL_ENTRANCE,
  type ExternalEntranceState,
  type ExternalImportRecord,
  type ExternalTicketRecord,
  enforceExternalCaps,
  externalSlice,
  type ImportLineErrorRecord,
  initialExternalEntranceState,
  retainedExternalRecords,
} from "./state.ts";

interface Line {
  externalId: string;
  quicode: string;
  eventId: string;
  holderName?: string;
  validFrom?: string;
  validUntil?: string;
}

const DETAILS: Record<ImportLineErrorRecord["code"], LocalizedText> = {
  unknown_event: msg("external-entrance.the-event-does-not-exist"),
  quicode_conflict: msg("external-entrance.another-ticket-already-has-this-code"),
  invalid_validity: msg("external-entrance.validuntil-must-be-after-validfrom"),
  duplicate_in_batch: msg("external-entrance.line-of-this-import-has-the"),
  changed_duplicate: msg("external-entrance.this-ticket-was-already-imported-with"),
};

/** What makes two imports of one `(vendor, externalId)` identical. */
function fingerprint(line: Line): string {
  return JSON.stringify([
    line.quicode,
    line.eventId,
    line.holderName ?? null,
    line.validFrom ?? null,
    line.validUntil ?? null,
  ]);
}

/**
 * Reconcile one batch: each line is accepted (new ticket, admissible at once), a duplicate (same vendor ticket,
 * identical data) or rejected with a pointer. Runs to completion in the request, so the 202 is already `completed`.
 */
export function reconcile(
  world: World,
  ctx: Pick<OperationContext, "id" | "clock">,
  vendor: string,
  lines: Line[],
): ExternalImportRecord {
  const state = externalSlice(world);
  const now = new Date(ctx.clock.now()).toISOString();
  const record: ExternalImportRecord = {
    id: ctx.id("imp"),
    vendor,
    status: "processing",
    lineCount: lines.length,
    counts: { accepted: 0, duplicate: 0, rejected: 0 },
    errors: [],
    createdAt: now,
    completedAt: null,
  };
  const seenExternal = new Map<string, number>();
  const seenQuicode = new Map<string, number>();
  for (const [i, line] of lines.entries()) {
    const at = `/body/tickets/${i}`;
    const reject = (
      pointer: string,
      code: ImportLineErrorRecord["code"],
      args: Record<string, string | number> = {},
    ) => {
      record.counts.rejected++;
      record.errors.push({ pointer, code, args });
    };
    const earlierExternal = seenExternal.get(line.externalId);
    const earlierQuicode = seenQuicode.get(line.quicode);
    if (earlierExternal !== undefined) {
      reject(`${at}/externalId`, "duplicate_in_batch", { line: earlierExternal });
      continue;
    }
    if (earlierQuicode !== undefined) {
      reject(`${at}/quicode`, "duplicate_in_batch", { line: earlierQuicode });
      continue;
    }
    seenExternal.set(line.externalId, i);
    seenQuicode.set(line.quicode, i);
    const key = `${vendor}\n${line.externalId}`;
    const existingId = state.byExternalId[key];
    if (existingId) {
      const existing = state.tickets[existingId] as ExternalTicketRecord;
      if (existing.fingerprint === fingerprint(line)) {
        record.counts.duplicate++;
        continue;
      }
      reject(at, "changed_duplicate", { ticketId: existingId });
      continue;
    }
    const event = shopEvent(world, line.eventId);
    if (!event) {
      reject(`${at}/eventId`, "unknown_event", { eventId: line.eventId });
      continue;
    }
    if (line.validFrom && line.validUntil && Date.parse(line.validUntil) <= Date.parse(line.validFrom)) {
      reject(`${at}/validUntil`, "invalid_validity");
      continue;
    }
    if (state.byQuicode[line.quicode] || shopTicketByQuicode(world, line.quicode)) {
      reject(`${at}/quicode`, "quicode_conflict");
      continue;
    }
    const first = event.slots.map((s) => s.startsAt).sort()[0] ?? event.startsAt;
    const last =
      event.slots
        .map((s) => s.endsAt)
        .sort()
        .at(-1) ?? event.endsAt;
    const ticket: ExternalTicketRecord = {
      id: ctx.id("xtk"),
      vendor,
      externalId: line.externalId,
      quicode: line.quicode,
      eventId: line.eventId,
      holderName: line.holderName ?? null,
      validFrom:
        line.validFrom ?? (first ? new Date(Date.parse(first) - DOORS_OPEN_BEFORE_MS).toISOString() : null),
      validUntil: line.validUntil ?? (last ? new Date(Date.parse(last)).toISOString() : null),
      status: "valid",
      importId: record.id,
      importedAt: now,
      fingerprint: fingerprint(line),
    };
    state.tickets[ticket.id] = ticket;
    state.ticketOrder.push(ticket.id);
    state.byQuicode[ticket.quicode] = ticket.id;
    state.byExternalId[key] = ticket.id;
    record.counts.accepted++;
  }
  record.status = "completed";
  record.completedAt = new Date(ctx.clock.now()).toISOString();
  state.imports[record.id] = record;
  state.importOrder.push(record.id);
  enforceExternalCaps(state);
  return record;
}

function fill(template: string, args: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, k: string) => String(args[k] ?? ""));
}

function importJson(ctx: OperationContext, r: ExternalImportRecord) {
  return {
    ...importSummary(r),
    errors: r.errors.map((e) => ({
      pointer: e.pointer,
      code: e.code,
      detail: fill(ctx.text(DETAILS[e.code]), e.args),
    })),
  };
}

function importSummary(r: ExternalImportRecord) {
  return {
    id: r.id,
    vendor: r.vendor,
    status: r.status,
    lineCount: r.lineCount,
    counts: { ...r.counts },
    createdAt: r.createdAt,
    completedAt: r.completedAt,
  };
}

function ticketJson(r: ExternalTicketRecord) {
  return {
    id: r.id,
    vendor: r.vendor,
    externalId: r.externalId,
    quicode: r.quicode,
    eventId: r.eventId,
    holderName: r.holderName,
    validFrom: r.validFrom,
    validUntil: r.validUntil,
    status: r.status,
    importId: r.importId,
    importedAt: r.importedAt,
  };
}

function createExternalImport(ctx: ContextOf<"createExternalImport">): ResultOf<"createExternalImport"> {
  const body = ctx.body;
  const record = reconcile(ctx.world, ctx, body.vendor, body.tickets);
  ctx.emit("entrance.external_import_completed", { import: importSummary(record) });
  return {
    status: 202,
    headers: { location: apiUrl(ctx, `/external-entrance/v1/imports/${record.id}`) },
    body: importJson(ctx, record),
  };
}

function getExternalImport(ctx: ContextOf<"getExternalImport">): ResultOf<"getExternalImport"> {
  const state = externalSlice(ctx.world);
  const id = ctx.params.importId as string;
  const record = state.imports[id];
  if (!record) ctx.problem("not-found", detail(ctx, "noImport", { id }));
  return { status: 200, body: importJson(ctx, record) };
}

function listExternalImports(ctx: ContextOf<"listExternalImports">): ResultOf<"listExternalImports"> {
  const state = externalSlice(ctx.world);
  const vendor = queryParam(ctx, "vendor");
  const items = state.importOrder
    .map((id) => state.imports[id] as ExternalImportRecord)
    .filter((r) => vendor === undefined || r.vendor === vendor)
    .reverse();
  const page = paginate(ctx, items, { position: (r) => [r.createdAt, r.id], descending: true });
  return { status: 200, body: { items: page.items.map(importSummary), nextCursor: page.nextCursor } };
}

function listExternalTickets(ctx: ContextOf<"listExternalTickets">): ResultOf<"listExternalTickets"> {
  const state = externalSlice(ctx.world);
  const vendor = queryParam(ctx, "vendor");
  const eventId = queryParam(ctx, "eventId");
  const importId = queryParam(ctx, "importId");
  const externalId = queryParam(ctx, "externalId");
  const items = state.ticketOrder
    .map((id) => state.tickets[id] as ExternalTicketRecord)
    .filter(
      (r) =>
        (vendor === undefined || r.vendor === vendor) &&
        (eventId === undefined || r.eventId === eventId) &&
        (importId === undefined || r.importId === importId) &&
        (externalId === undefined || r.externalId === externalId),
    )
    .reverse();
  const page = paginate(ctx, items, { position: (r) => [r.importedAt, r.id], descending: true });
  return { status: 200, body: { items: page.items.map(ticketJson), nextCursor: page.nextCursor } };
}

/** External entrance: batch import of vendor tickets with reconciliation; imported tickets are admissible at once. */
const externalEntrance = defineSection<ExternalEntranceState>({
  name: EXTERNAL_ENTRANCE,
  initialState(seed) {
    return initialExternalEntranceState(seed[EXTERNAL_ENTRANCE] as Record<string, unknown> | undefined);
  },
  retained: retainedExternalRecords,
  handlers: { createExternalImport, getExternalImport, listExternalImports, listExternalTickets },
});

export default externalEntrance;
