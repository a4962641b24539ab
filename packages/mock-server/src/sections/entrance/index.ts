import type { components } from "@entrada/openapi/schema";
import { apiUrl } from "../../core/links.ts";
import { everyCulture } from "../../core/messages.ts";
import { type ContextOf, defineSection, type ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { detail } from "../shared/details.ts";
import { paginate, queryParam } from "../shared/paging.ts";
import { shopEvent, shopTicketById, webhookShopTicket } from "../shared/shop-view.ts";
import { resolveTicket } from "./admission.ts";
import {
  classify,
  DEFAULT_MAX_CATEGORIES,
  ENTRANCE,
  type EntranceState,
  entranceSlice,
  initialEntranceState,
  logScan,
  occupancies,
  type QuicodeCategoryRecord,
  resolvedGates,
  retainedEntranceRecords,
  type ScanOutcome,
  type ScanRecord,
  setPresence,
} from "./state.ts";
import { UNCATEGORIZED } from "./texts.ts";
import { categoryJson, emitScan, exitJson, isAdmission, localize, scanJson, webhookScan } from "./views.ts";

/** A scan may be buffered offline, but not come from the future (small clock skew tolerated). */
const FUTURE_TOLERANCE_MS = 5 * 60_000;

function gateOr404(ctx: OperationContext) {
  const gateId = ctx.params.gateId as string;
  const gate = resolvedGates(ctx.world).find((g) => g.id === gateId);
  if (!gate) ctx.problem("not-found", detail(ctx, "noGate", { id: gateId }));
  return gate;
}

/** The instant a device read the code: the body's time or now; future times beyond the tolerance are 422. */
function readAt(ctx: OperationContext, field: "scannedAt" | "exitedAt"): number {
  const body = ctx.body as Record<string, unknown>;
  const now = ctx.clock.now();
  const raw = body[field];
  if (typeof raw !== "string") return now;
  const at = Date.parse(raw);
  if (at > now + FUTURE_TOLERANCE_MS) {
    const text = detail(ctx, "future", { field });
    ctx.problem("unprocessable", text, { errors: [{ pointer: `/body/${field}`, detail: text }] });
  }
  return at;
}

/** How many of an event's ticket holders are inside (admitted minus exited), O(1). */
function insideCount(state: EntranceState, eventId: string): number {
  const counts = occupancies(state)[eventId];
  return counts ? Math.max(0, counts.admitted - counts.exited) : 0;
}

function eventCapacity(ctx: OperationContext, eventId: string): number | null {
  const capacities =
    shopEvent(ctx.world, eventId)
      ?.slots.map((s) => s.capacity)
      .filter((c): c is number => c !== null) ?? [];
  return capacities.length > 0 ? Math.max(...capacities) : null;
}

/**
 * What entries and exits share: the gate (409 when closed or one-way the other way), the scan time and the
 * ticket the Quicode names.
 */
function readScan(ctx: ContextOf<"scanQuicode"> | ContextOf<"recordExit">, direction: "in" | "out") {
  const gate = gateOr404(ctx);
  const body: { quicode: string; deviceId?: string } = ctx.body;
  if (gate.status === "closed") ctx.problem("conflict", detail(ctx, "gateClosed", { id: gate.id }));
  if (direction === "in" && gate.direction === "exit")
    ctx.problem("conflict", detail(ctx, "gateExitOnly", { id: gate.id }));
  if (direction === "out" && gate.direction === "entry")
    ctx.problem("conflict", detail(ctx, "gateEntryOnly", { id: gate.id }));
  const at = readAt(ctx, direction === "in" ? "scannedAt" : "exitedAt");
  const resolved = resolveTicket(ctx.world, body.quicode);
  return { gate, body, at, resolved, ticket: resolved?.summary ?? null };
}

/** The scan log entry of an entry or exit. */
type Scan = ReturnType<typeof readScan>;
type Outcome<D extends ScanOutcome["direction"]> = Extract<ScanOutcome, { direction: D }> & {
  reasonAt: string | null;
};
function scanRecord(
  ctx: OperationContext,
  state: EntranceState,
  scan: Scan,
  outcome: Outcome<"in">,
): ScanRecord & { direction: "in" };
function scanRecord(
  ctx: OperationContext,
  state: EntranceState,
  scan: Scan,
  outcome: Outcome<"out">,
): ScanRecord & { direction: "out" };
function scanRecord(
  ctx: OperationContext,
  state: EntranceState,
  scan: Scan,
  outcome: Outcome<"in"> | Outcome<"out">,
): ScanRecord {
  const fields = {
    id: ctx.id("scn"),
    gateId: scan.gate.id,
    eventId: scan.ticket?.eventId ?? null,
    quicode: scan.body.quicode,
    at: new Date(scan.at).toISOString(),
    deviceId: scan.body.deviceId ?? null,
    ticket: scan.ticket ? { ...scan.ticket } : null,
    categoryId: classify(state.categories, scan.body.quicode)?.id ?? null,
  };
  return { ...fields, ...outcome };
}

function scanQuicode(ctx: ContextOf<"scanQuicode">): ResultOf<"scanQuicode"> {
  const state = entranceSlice(ctx.world);
  const scan = readScan(ctx, "in");
  const { gate, at, resolved, ticket } = scan;
  let reason: components["schemas"]["ScanResult"]["reason"] = null;
  let reasonAt: string | null = null;
  const presence = ticket ? state.presence[ticket.id] : undefined;
  if (!ticket) reason = "unknown_quicode";
  else if (ticket.status === "cancelled") reason = "cancelled";
  else if (!gate.eventIds.includes(ticket.eventId)) reason = "wrong_gate";
  else if (ticket.validFrom && at < Date.parse(ticket.validFrom)) {
    reason = "not_yet_valid";
    reasonAt = ticket.validFrom;
  } else if (ticket.validUntil && at > Date.parse(ticket.validUntil)) {
    reason = "expired";
    reasonAt = ticket.validUntil;
  } else if (presence?.inside || ticket.status === "used") {
    reason = "already_used";
    reasonAt = presence?.lastAdmittedAt ?? null;
  }
  const admitted = reason === null;
  const firstAdmission = admitted && ticket !== null && !presence;
  if (admitted && ticket && resolved) {
    setPresence(state, ticket.id, { inside: true, lastAdmittedAt: new Date(at).toISOString() });
    resolved.setStatus("used");
    ticket.status = "used";
  }
  const record = scanRecord(ctx, state, scan, {
    direction: "in",
    result: admitted ? "admitted" : "denied",
    reason,
    reasonAt,
  });
  logScan(state, record);
  emitScan(ctx, state, record);
  if (firstAdmission && ticket?.source === "shop") {
    const shopTicket = shopTicketById(ctx.world, ticket.id);
    if (shopTicket) {
      ctx.emit("ticket.used", {
        ticket: webhookShopTicket(ctx, shopTicket, "used"),
        scan: webhookScan(state, record),
      });
    }
  }
  if (admitted && ticket) {
    const capacity = eventCapacity(ctx, ticket.eventId);
    const inside = insideCount(state, ticket.eventId);
    if (capacity !== null && inside === capacity) {
      ctx.emit("entrance.capacity_reached", { eventId: ticket.eventId, inside, capacity });
    }
  }
  return { status: 201, body: scanJson(ctx, state, record) };
}

function recordExit(ctx: ContextOf<"recordExit">): ResultOf<"recordExit"> {
  const state = entranceSlice(ctx.world);
  const scan = readScan(ctx, "out");
  const { gate, resolved, ticket } = scan;
  let reason: components["schemas"]["ExitResult"]["reason"] = null;
  if (!ticket) reason = "unknown_quicode";
  else if (!gate.eventIds.includes(ticket.eventId)) reason = "wrong_gate";
  else if (!state.presence[ticket.id]?.inside) reason = "not_inside";
  if (reason === null && ticket && resolved) {
    (state.presence[ticket.id] as { inside: boolean }).inside = false;
    resolved.setStatus("valid");
    ticket.status = "valid";
  }
  const record = scanRecord(ctx, state, scan, {
    direction: "out",
    result: reason === null ? "exited" : "rejected",
    reason,
    reasonAt: null,
  });
  logScan(state, record);
  if (reason === null && ticket) {
    emitScan(ctx, state, record);
    const capacity = eventCapacity(ctx, ticket.eventId);
    const inside = insideCount(state, ticket.eventId);
    if (capacity !== null && inside === capacity - 1) {
      ctx.emit("entrance.capacity_released", { eventId: ticket.eventId, inside, capacity });
    }
  }
  return { status: 201, body: exitJson(ctx, record) };
}

function listGates(ctx: ContextOf<"listGates">): ResultOf<"listGates"> {
  const venueId = queryParam(ctx, "venueId");
  const eventId = queryParam(ctx, "eventId");
  const gates = resolvedGates(ctx.world).filter(
    (g) =>
      (venueId === undefined || g.venueId === venueId) &&
      (eventId === undefined || g.eventIds.includes(eventId)),
  );
  const page = paginate(ctx, gates, { position: (g, index) => [index, g.id] });
  return {
    status: 200,
    body: {
      items: page.items.map((g) => ({
        id: g.id,
        name: localize(ctx, g.name),
        venueId: g.venueId,
        eventIds: g.eventIds,
        direction: g.direction,
        status: g.status,
      })),
      nextCursor: page.nextCursor,
    },
  };
}

function listGateScans(ctx: ContextOf<"listGateScans">): ResultOf<"listGateScans"> {
  const state = entranceSlice(ctx.world);
  const gate = gateOr404(ctx);
  const result = queryParam(ctx, "result");
  const scans = state.scans
    .filter(isAdmission)
    .filter((s) => s.gateId === gate.id && (result === undefined || s.result === result))
    .reverse();
  const page = paginate(ctx, scans, { position: (s) => [s.at, s.id], descending: true });
  return {
    status: 200,
    body: { items: page.items.map((s) => scanJson(ctx, state, s)), nextCursor: page.nextCursor },
  };
}

function listQuicodeCategories(ctx: ContextOf<"listQuicodeCategories">): ResultOf<"listQuicodeCategories"> {
  const state = entranceSlice(ctx.world);
  const page = paginate(ctx, state.categories, { position: (c, index) => [index, c.id] });
  return {
    status: 200,
    body: { items: page.items.map((c) => categoryJson(ctx, c)), nextCursor: page.nextCursor },
  };
}

function createQuicodeCategory(ctx: ContextOf<"createQuicodeCategory">): ResultOf<"createQuicodeCategory"> {
  const state = entranceSlice(ctx.world);
  const body = ctx.body;
  try {
    new RegExp(body.pattern);
  } catch (error) {
    ctx.problem("unprocessable", detail(ctx, "badPattern"), {
      errors: [{ pointer: "/body/pattern", detail: error instanceof Error ? error.message : String(error) }],
    });
  }
  const lower = body.name.trim().toLocaleLowerCase();
  const clash = state.categories.find((c) =>
    typeof c.name === "string"
      ? c.name.toLocaleLowerCase() === lower
      : everyCulture(c.name).some((n) => n.toLocaleLowerCase() === lower),
  );
  if (clash) ctx.problem("conflict", detail(ctx, "categoryExists", { name: body.name, id: clash.id }));
  // Every scan is matched against every category: their number is capped, not only their lifetime.
  const max = state.maxCategories ?? DEFAULT_MAX_CATEGORIES;
  if (state.categories.filter((c) => !c.builtIn).length >= max)
    ctx.problem("conflict", detail(ctx, "categoryLimit", { max }));
  const record: QuicodeCategoryRecord = {
    id: ctx.id("qcc"),
    name: body.name,
    pattern: body.pattern,
    description: body.description ?? "",
    builtIn: false,
    createdAt: new Date(ctx.clock.now()).toISOString(),
  };
  state.categories.push(record);
  return {
    status: 201,
    headers: { location: apiUrl(ctx, `/entrance/v1/quicode-categories`) },
    body: categoryJson(ctx, record),
  };
}

function getScanReport(ctx: ContextOf<"getScanReport">): ResultOf<"getScanReport"> {
  const state = entranceSlice(ctx.world);
  const eventId = queryParam(ctx, "eventId") ?? null;
  const gateId = queryParam(ctx, "gateId") ?? null;
  const from = queryParam(ctx, "from") ?? null;
  const to = queryParam(ctx, "to") ?? null;
  if (from && to && Date.parse(to) <= Date.parse(from)) {
    ctx.problem("validation-error", undefined, {
      errors: [{ pointer: "/query/to", detail: detail(ctx, "toBeforeFrom") }],
    });
  }
  if (gateId && !resolvedGates(ctx.world).some((g) => g.id === gateId))
    ctx.problem("not-found", detail(ctx, "noGate", { id: gateId }));
  const scans = state.scans.filter(
    (s) =>
      (eventId === null || s.eventId === eventId) &&
      (gateId === null || s.gateId === gateId) &&
      (from === null || Date.parse(s.at) >= Date.parse(from)) &&
      (to === null || Date.parse(s.at) < Date.parse(to)),
  );
  const counts = new Map<string | null, { admitted: number; denied: number; exited: number }>();
  for (const s of scans) {
    const category = classify(state.categories, s.quicode);
    const key = category?.id ?? null;
    const row = counts.get(key) ?? { admitted: 0, denied: 0, exited: 0 };
    if (s.result === "admitted") row.admitted++;
    else if (s.result === "denied") row.denied++;
    else if (s.result === "exited") row.exited++;
    counts.set(key, row);
  }
  const rows = [...state.categories.map((c) => c.id), null]
    .filter((id) => counts.has(id))
    .map((id) => {
      const c = id === null ? null : state.categories.find((x) => x.id === id);
      return {
        categoryId: id,
        categoryName: c ? (localize(ctx, c.name) as string) : (localize(ctx, UNCATEGORIZED) as string),
        ...(counts.get(id) as { admitted: number; denied: number; exited: number }),
      };
    });
  const totals = rows.reduce(
    (acc, r) => ({
      admitted: acc.admitted + r.admitted,
      denied: acc.denied + r.denied,
      exited: acc.exited + r.exited,
    }),
    { admitted: 0, denied: 0, exited: 0 },
  );
  return { status: 200, body: { eventId, gateId, from, to, rows, totals } };
}

function getEventOccupancy(ctx: ContextOf<"getEventOccupancy">): ResultOf<"getEventOccupancy"> {
  const state = entranceSlice(ctx.world);
  const eventId = ctx.params.eventId as string;
  const event = shopEvent(ctx.world, eventId);
  const counts = occupancies(state)[eventId];
  if (!event && !counts) ctx.problem("not-found", detail(ctx, "noEvent", { id: eventId }));
  const zero = { admitted: 0, exited: 0, denied: 0 };
  const byGate = new Map<string, { gateId: string; admitted: number; exited: number; denied: number }>();
  for (const g of resolvedGates(ctx.world))
    if (g.eventIds.includes(eventId)) byGate.set(g.id, { gateId: g.id, ...zero });
  for (const [gateId, c] of Object.entries(counts?.byGate ?? {}))
    byGate.set(gateId, { gateId, admitted: c.admitted, exited: c.exited, denied: c.denied });
  const admittedTotal = counts?.admitted ?? 0;
  const exitedTotal = counts?.exited ?? 0;
  const deniedTotal = counts?.denied ?? 0;
  const latest = counts?.latest ?? null;
  const capacity = eventCapacity(ctx, eventId);
  return {
    status: 200,
    body: {
      eventId,
      inside: Math.max(0, admittedTotal - exitedTotal),
      capacity,
      admittedTotal,
      exitedTotal,
      deniedTotal,
      byGate: [...byGate.values()],
      updatedAt: latest ?? new Date(ctx.clock.now()).toISOString(),
    },
  };
}

/** Entrance: gates, admission and exit scans, occupancy, Quicode categories and scan reports. */
const entrance = defineSection<EntranceState>({
  name: ENTRANCE,
  initialState(seed) {
    return initialEntranceState(seed[ENTRANCE] as Record<string, unknown> | undefined);
  },
  retained: retainedEntranceRecords,
  handlers: {
    listGates,
    listGateScans,
    scanQuicode,
    recordExit,
    listQuicodeCategories,
    createQuicodeCategory,
    getScanReport,
    getEventOccupancy,
  },
});

export default entrance;
