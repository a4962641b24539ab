/**
 * The entrance section's records in the contract's shapes: scans (`ScanResult`), exits (`ExitResult`), ticket
 * summaries and categories for API answers, and the `WebhookScan`/`EntranceTicketSummary` payloads of the
 * entrance webhooks (`emitScan`).
 */
import type { components } from "@entrada/openapi/schema";
import { CULTURES, pickText } from "../../core/culture.ts";
import type { LocalizedText, OperationContext } from "../../core/types.ts";
import { localizedValue } from "../webhooks/queue.ts";
import type { EntranceState, QuicodeCategoryRecord, ScanRecord, TicketSummaryRecord } from "./state.ts";
import { reasonText } from "./texts.ts";

export function localize(ctx: OperationContext, v: LocalizedText | string): string;
export function localize(ctx: OperationContext, v: LocalizedText | string | null): string | null;
export function localize(ctx: OperationContext, v: LocalizedText | string | null): string | null {
  return v === null ? null : typeof v === "string" ? v : pickText(v, ctx.culture);
}

function ticketJson(ctx: OperationContext, t: TicketSummaryRecord | null) {
  if (!t) return null;
  return {
    id: t.id,
    source: t.source,
    ...(t.vendor !== undefined ? { vendor: t.vendor } : {}),
    eventId: t.eventId,
    slotId: t.slotId,
    articleName: localize(ctx, t.articleName),
    holderName: t.holderName,
    validFrom: t.validFrom,
    validUntil: t.validUntil,
    status: t.status,
  };
}

function categoryRef(ctx: OperationContext, state: EntranceState, id: string | null) {
  const c = id === null ? undefined : state.categories.find((x) => x.id === id);
  return c ? { id: c.id, name: localize(ctx, c.name) as string } : null;
}

function reasonTextOf(ctx: OperationContext, s: ScanRecord): string {
  return reasonText(
    s.reason ?? (s.direction === "in" ? "admitted" : "exited"),
    ctx.culture,
    s.reasonAt ? Date.parse(s.reasonAt) : undefined,
  );
}

/** An admission attempt in the contract's `ScanResult` shape. */
export function scanJson(
  ctx: OperationContext,
  state: EntranceState,
  s: ScanRecord & { direction: "in" },
): components["schemas"]["ScanResult"] {
  return {
    id: s.id,
    gateId: s.gateId,
    eventId: s.eventId,
    result: s.result,
    reason: s.reason,
    reasonText: reasonTextOf(ctx, s),
    scannedAt: s.at,
    deviceId: s.deviceId,
    ticket: ticketJson(ctx, s.ticket),
    category: categoryRef(ctx, state, s.categoryId),
  };
}

/** An exit in the contract's `ExitResult` shape. */
export function exitJson(
  ctx: OperationContext,
  s: ScanRecord & { direction: "out" },
): components["schemas"]["ExitResult"] {
  return {
    id: s.id,
    gateId: s.gateId,
    eventId: s.eventId,
    result: s.result,
    reason: s.reason,
    reasonText: reasonTextOf(ctx, s),
    exitedAt: s.at,
    deviceId: s.deviceId,
    ticket: ticketJson(ctx, s.ticket),
  };
}

/** Admissions only: exits are recorded by `recordExit` and are not scans of the gate's list. */
export function isAdmission(s: ScanRecord): s is ScanRecord & { direction: "in" } {
  return s.direction === "in";
}

export function categoryJson(ctx: OperationContext, c: QuicodeCategoryRecord) {
  return {
    id: c.id,
    name: localize(ctx, c.name) as string,
    pattern: c.pattern,
    description: localize(ctx, c.description) ?? "",
    builtIn: c.builtIn,
    createdAt: c.createdAt,
  };
}

/** `WebhookScan` of the contract's entrance events. */
export function webhookScan(state: EntranceState, s: ScanRecord) {
  const c = s.categoryId === null ? undefined : state.categories.find((x) => x.id === s.categoryId);
  return {
    id: s.id,
    gateId: s.gateId,
    eventId: s.eventId,
    scannedAt: s.at,
    deviceId: s.deviceId,
    category: c ? { id: c.id, name: typeof c.name === "string" ? c.name : localizedValue(c.name) } : null,
  };
}

/** `EntranceTicketSummary` with its localized article name resolved per subscription. */
function webhookTicket(t: TicketSummaryRecord | null) {
  if (!t) return null;
  return {
    id: t.id,
    source: t.source,
    ...(t.vendor !== undefined ? { vendor: t.vendor } : {}),
    eventId: t.eventId,
    slotId: t.slotId,
    articleName:
      t.articleName === null || typeof t.articleName === "string"
        ? t.articleName
        : localizedValue(t.articleName),
    holderName: t.holderName,
    validFrom: t.validFrom,
    validUntil: t.validUntil,
    status: t.status,
  };
}

export function emitScan(ctx: OperationContext, state: EntranceState, s: ScanRecord): void {
  const scan = webhookScan(state, s);
  if (s.result === "admitted") ctx.emit("entrance.admitted", { scan, ticket: webhookTicket(s.ticket) });
  else if (s.result === "exited") ctx.emit("entrance.exited", { scan, ticket: webhookTicket(s.ticket) });
  else if (s.result === "denied") {
    const at = s.reasonAt ? Date.parse(s.reasonAt) : undefined;
    const texts = Object.fromEntries(
      CULTURES.map((c) => [c, reasonText(s.reason as string, c, at)]),
    ) as LocalizedText;
    ctx.emit("entrance.denied", {
      scan,
      reason: s.reason,
      reasonText: localizedValue(texts),
      ticket: webhookTicket(s.ticket),
    });
  }
}
