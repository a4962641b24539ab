import { describe, expect, it } from "vitest";
import entrance from "../../src/sections/entrance/index.ts";
import {
  type EntranceState,
  initialEntranceState,
  occupancies,
  retainedEntranceRecords,
  setPresence,
} from "../../src/sections/entrance/state.ts";
import externalEntrance from "../../src/sections/external-entrance/index.ts";
import { shopSlice } from "../../src/sections/shop/state.ts";
import { resolveLocalized } from "../../src/sections/webhooks/queue.ts";
import { fakeShop, harness } from "./context.ts";

const MAIN = "gte_HALLM";
const EXIT = "gte_HALLX";
const EXPO = "gte_EXPOM";

function setup(seed: Record<string, unknown> = {}) {
  const h = harness([entrance, externalEntrance], { slices: fakeShop(), seed });
  h.clock.set("2026-12-05T18:30:00Z");
  const scan = (
    quicode: string,
    gateId = MAIN,
    extra: Record<string, unknown> = {},
    culture?: "de-CH" | "fr-CH" | "it-CH" | "en-GB",
  ) =>
    h.call(entrance, "scanQuicode", {
      params: { gateId },
      body: { quicode, ...extra },
      ...(culture ? { culture } : {}),
    });
  const exit = (quicode: string, gateId = EXIT) =>
    h.call(entrance, "recordExit", { params: { gateId }, body: { quicode } });
  return { h, scan, exit };
}

describe("entrance: gates", () => {
  it("derives a main entrance and an exit per shop venue, localized, filterable by event", async () => {
    const { h } = setup();
    const all = await h.call(entrance, "listGates", { culture: "fr-CH" });
    const body = all.body;
    expect(body.items.map((g) => g.id)).toEqual([MAIN, EXIT, EXPO, "gte_EXPOX"]);
    expect(body.items[0]).toMatchObject({
      name: "Entrée principale",
      direction: "both",
      eventIds: ["evt_CONCERT"],
    });
    const forFair = await h.call(entrance, "listGates", { query: { eventId: "evt_FAIR" } });
    expect(forFair.body.items.map((g) => g.id)).toEqual([EXPO, "gte_EXPOX"]);
  });

  it("pages with an opaque cursor and rejects a foreign one", async () => {
    const { h } = setup();
    const first = (await h.call(entrance, "listGates", { query: { limit: "3" } })).body;
    expect(first.items).toHaveLength(3);
    const second = (
      await h.call(entrance, "listGates", { query: { limit: "3", cursor: first.nextCursor ?? "" } })
    ).body;
    expect(second.items.map((g) => g.id)).toEqual(["gte_EXPOX"]);
    expect(second.nextCursor).toBeNull();
    const p = await h.problem(entrance, "listGates", { query: { cursor: "bm9wZQ" } });
    expect(p.slug).toBe("validation-error");
    expect(p.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/query/cursor" })]);
  });
});

describe("entrance: admission", () => {
  it("admits a valid shop ticket once, denies the second scan as already_used, re-admits after an exit", async () => {
    const { h, scan, exit } = setup();
    const first = await scan("Q1.tkt_A.K7P2", MAIN, { deviceId: "scanner-07" }, "en-GB");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      gateId: MAIN,
      eventId: "evt_CONCERT",
      result: "admitted",
      reason: null,
      reasonText: "Welcome! Entry granted.",
      deviceId: "scanner-07",
      ticket: {
        id: "tkt_A",
        source: "shop",
        status: "used",
        articleName: "Standing",
        validFrom: "2026-12-05T16:00:00.000Z",
      },
      category: { id: "qcc_01JDX0SH0PT1CKETS00000000A", name: "Shop tickets" },
    });
    // The shop's ticket shows the entrance status.
    expect(shopSlice(h.world).tickets.tkt_A?.status).toBe("used");

    h.clock.advance(60_000);
    const again = await scan("Q1.tkt_A.K7P2", MAIN, {}, "en-GB");
    expect(again.body).toMatchObject({ result: "denied", reason: "already_used" });
    expect(again.body.reasonText).toMatch(/^This ticket was already scanned at 19:30\.$/);

    const out = await exit("Q1.tkt_A.K7P2");
    expect(out.body).toMatchObject({ result: "exited", reason: null, ticket: { status: "valid" } });
    expect(shopSlice(h.world).tickets.tkt_A?.status).toBe("valid");
    const back = await scan("Q1.tkt_A.K7P2");
    expect(back.body).toMatchObject({ result: "admitted" });

    expect(h.emitted.map((e) => e.type)).toEqual([
      "entrance.admitted",
      "ticket.used",
      "entrance.denied",
      "entrance.exited",
      "entrance.admitted",
    ]);
    expect(h.emitted[0]?.data).toMatchObject({
      scan: {
        gateId: MAIN,
        eventId: "evt_CONCERT",
        deviceId: "scanner-07",
        category: { id: "qcc_01JDX0SH0PT1CKETS00000000A" },
      },
      ticket: { id: "tkt_A", source: "shop", status: "used" },
    });
    expect(h.emitted[1]?.data).toMatchObject({
      ticket: {
        id: "tkt_A",
        orderId: "ord_ONE",
        quicode: "Q1.tkt_A.K7P2",
        ticketUrl: "http://127.0.0.1:4010/assets/v1/tickets/tkt_A.pdf?expires=0&signature=unit-test",
        status: "used",
      },
    });
    // The denial's reasonText is resolved per subscription culture at delivery.
    const denied = h.emitted[2]?.data;
    expect(denied?.reason).toBe("already_used");
    expect(resolveLocalized(denied?.reasonText, "fr-CH")).toBe("Ce billet a déjà été scanné à 19:30.");
  });

  it("fires capacity_reached when the last place fills and capacity_released on the next exit", async () => {
    const shop = fakeShop() as { shop: { events: { evt_CONCERT: { slots: { capacity: number }[] } } } };
    (shop.shop.events.evt_CONCERT.slots[0] as { capacity: number }).capacity = 2;
    const h = harness([entrance, externalEntrance], { slices: shop });
    h.clock.set("2026-12-05T18:30:00Z");
    await h.call(entrance, "scanQuicode", { params: { gateId: MAIN }, body: { quicode: "Q1.tkt_A.K7P2" } });
    await h.call(entrance, "scanQuicode", { params: { gateId: MAIN }, body: { quicode: "Q1.tkt_B.K7P2" } });
    await h.call(entrance, "recordExit", { params: { gateId: EXIT }, body: { quicode: "Q1.tkt_B.K7P2" } });
    const capacity = h.emitted.filter((e) => e.type.startsWith("entrance.capacity"));
    expect(capacity).toEqual([
      { type: "entrance.capacity_reached", data: { eventId: "evt_CONCERT", inside: 2, capacity: 2 } },
      { type: "entrance.capacity_released", data: { eventId: "evt_CONCERT", inside: 1, capacity: 2 } },
    ]);
  });

  it("denies with the right reason: unknown, bad checksum, cancelled, wrong gate, too early, expired", async () => {
    const { h, scan } = setup();
    expect((await scan("NOT-A-TICKET")).body).toMatchObject({
      result: "denied",
      reason: "unknown_quicode",
      ticket: null,
      eventId: null,
      category: { name: "Externe Tickets" },
    });
    expect((await scan("Q1.tkt_A.XXXX")).body).toMatchObject({
      reason: "unknown_quicode",
      category: { name: "Shop-Tickets" },
    });
    expect((await scan("Q1.tkt_X.K7P2")).body).toMatchObject({ reason: "cancelled" });
    expect((await scan("Q1.tkt_C.K7P2")).body).toMatchObject({ reason: "wrong_gate" });
    const early = await scan("Q1.tkt_B.K7P2", MAIN, { scannedAt: "2026-12-05T15:00:00Z" }, "de-CH");
    expect(early.body).toMatchObject({ reason: "not_yet_valid" });
    expect(early.body.reasonText).toContain("17:00");
    h.clock.set("2026-12-05T23:30:00Z");
    expect((await scan("Q1.tkt_B.K7P2")).body).toMatchObject({ reason: "expired" });
    // Denials do not consume the ticket.
    h.clock.set("2026-12-05T19:00:00Z");
    expect((await scan("Q1.tkt_B.K7P2")).body).toMatchObject({ result: "admitted" });
  });

  it("rejects scans from the future, at exit-only gates and at unknown gates", async () => {
    const { h, scan } = setup();
    const future = await h.problem(entrance, "scanQuicode", {
      params: { gateId: MAIN },
      body: { quicode: "Q1.tkt_A.K7P2", scannedAt: "2026-12-05T19:30:00Z" },
    });
    expect(future.slug).toBe("unprocessable");
    expect(future.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/body/scannedAt" })]);
    expect(
      (
        await h.problem(entrance, "scanQuicode", {
          params: { gateId: EXIT },
          body: { quicode: "Q1.tkt_A.K7P2" },
        })
      ).slug,
    ).toBe("conflict");
    const missing = await h.problem(entrance, "scanQuicode", {
      params: { gateId: "gte_NOPE" },
      body: { quicode: "Q1.tkt_A.K7P2" },
      culture: "fr-CH",
    });
    expect([missing.slug, missing.detail]).toEqual(["not-found", "L'accès gte_NOPE n'existe pas."]);
    // Nothing was logged or consumed by the rejected requests.
    expect((await scan("Q1.tkt_A.K7P2")).body).toMatchObject({ result: "admitted" });
  });

  it("rejects an exit of a ticket that is not inside", async () => {
    const { exit } = setup();
    expect((await exit("Q1.tkt_B.K7P2")).body).toMatchObject({ result: "rejected", reason: "not_inside" });
    expect((await exit("nope")).body).toMatchObject({
      result: "rejected",
      reason: "unknown_quicode",
      ticket: null,
    });
  });

  it("admits an imported external ticket right after the import, and counts it in occupancy", async () => {
    const { h, scan, exit } = setup();
    const imported = await h.call(externalEntrance, "createExternalImport", {
      body: {
        vendor: "eventbrite",
        tickets: [
          {
            externalId: "1",
            quicode: "EVB-2026-000481-XK",
            eventId: "evt_CONCERT",
            holderName: "Luca Rossi",
          },
        ],
      },
    });
    expect(imported.status).toBe(202);
    const admitted = await scan("EVB-2026-000481-XK");
    expect(admitted.body).toMatchObject({
      result: "admitted",
      ticket: { source: "external", vendor: "eventbrite", holderName: "Luca Rossi", status: "used" },
    });
    await scan("Q1.tkt_A.K7P2");
    await scan("Q1.tkt_A.K7P2");
    await exit("Q1.tkt_A.K7P2");
    const occ = await h.call(entrance, "getEventOccupancy", { params: { eventId: "evt_CONCERT" } });
    expect(occ.body).toMatchObject({
      eventId: "evt_CONCERT",
      inside: 1,
      capacity: 500,
      admittedTotal: 2,
      exitedTotal: 1,
      deniedTotal: 1,
      byGate: [
        { gateId: MAIN, admitted: 2, exited: 0, denied: 1 },
        { gateId: EXIT, admitted: 0, exited: 1, denied: 0 },
      ],
    });
    const tickets = await h.call(externalEntrance, "listExternalTickets", {});
    expect(tickets.body.items[0]?.status).toBe("used");
    expect((await h.problem(entrance, "getEventOccupancy", { params: { eventId: "evt_NOPE" } })).slug).toBe(
      "not-found",
    );
  });

  it("lists a gate's scans newest first, filtered by result", async () => {
    const { h, scan } = setup();
    await scan("Q1.tkt_A.K7P2");
    h.clock.advance(1000);
    await scan("Q1.tkt_A.K7P2");
    h.clock.advance(1000);
    await scan("zzz");
    const all = (await h.call(entrance, "listGateScans", { params: { gateId: MAIN } })).body;
    expect(all.items.map((s) => s.reason)).toEqual(["unknown_quicode", "already_used", null]);
    const denied = (
      await h.call(entrance, "listGateScans", { params: { gateId: MAIN }, query: { result: "denied" } })
    ).body;
    expect(denied.items).toHaveLength(2);
  });
});

describe("entrance: Quicode categories and the scan report", () => {
  it("creates custom categories, rejects bad patterns and duplicate names, and re-sorts past scans in reports", async () => {
    const { h, scan, exit } = setup();
    await h.call(externalEntrance, "createExternalImport", {
      body: {
        vendor: "eventbrite",
        tickets: [
          { externalId: "1", quicode: "EVB-2026-000001-VIP", eventId: "evt_CONCERT" },
          { externalId: "2", quicode: "EVB-2026-000002-XK", eventId: "evt_CONCERT" },
        ],
      },
    });
    await scan("EVB-2026-000001-VIP");
    await scan("EVB-2026-000002-XK");
    await scan("Q1.tkt_A.K7P2");
    await exit("Q1.tkt_A.K7P2");

    const bad = await h.problem(entrance, "createQuicodeCategory", {
      body: { name: "Broken", pattern: "([" },
    });
    expect(bad.slug).toBe("unprocessable");
    expect(bad.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/body/pattern" })]);
    const dup = await h.problem(entrance, "createQuicodeCategory", {
      body: { name: "shop tickets", pattern: "x" },
    });
    expect(dup.slug).toBe("conflict");

    const created = await h.call(entrance, "createQuicodeCategory", {
      body: { name: "VIP", pattern: "-VIP$", description: "VIP badges" },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: "VIP", builtIn: false, description: "VIP badges" });
    const list = (await h.call(entrance, "listQuicodeCategories", {})).body;
    expect(list.items.map((c) => c.name)).toEqual(["Shop-Tickets", "Externe Tickets", "VIP"]);
    // Built-in "Externe Tickets" comes first and matches the VIP code too: first match wins.
    const report = await h.call(entrance, "getScanReport", {
      query: { eventId: "evt_CONCERT" },
      culture: "en-GB",
    });
    expect(report.body).toMatchObject({
      eventId: "evt_CONCERT",
      rows: [
        { categoryName: "Shop tickets", admitted: 1, denied: 0, exited: 1 },
        { categoryName: "External tickets", admitted: 2, denied: 0, exited: 0 },
      ],
      totals: { admitted: 3, denied: 0, exited: 1 },
    });
  });

  it("reports uncategorized scans and validates the time range", async () => {
    const { h, scan } = setup();
    // With only shop-style categories matching, a payload like "Q1.garbage" matches none of the built-ins.
    await scan("Q1.garbage");
    const report = (await h.call(entrance, "getScanReport", { culture: "it-CH" })).body;
    expect(report.rows).toEqual([
      { categoryId: null, categoryName: "Senza categoria", admitted: 0, denied: 1, exited: 0 },
    ]);
    const range = await h.problem(entrance, "getScanReport", {
      query: { from: "2026-12-05T20:00:00Z", to: "2026-12-05T19:00:00Z" },
    });
    expect(range.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/query/to" })]);
  });
});

describe("entrance: bounded by design", () => {
  it("keeps at most maxScans scans (oldest first) while occupancy stays exact", async () => {
    const { h, scan, exit } = setup({ entrance: { maxScans: 4 } });
    // 1 admission + 1 denial, then 9 × (exit + admission): 20 log entries, 10 admitted, 9 exited, 1 denied.
    await scan("Q1.tkt_A.K7P2");
    h.clock.advance(1000);
    await scan("Q1.tkt_A.K7P2");
    for (let i = 0; i < 9; i++) {
      h.clock.advance(1000);
      await exit("Q1.tkt_A.K7P2");
      h.clock.advance(1000);
      await scan("Q1.tkt_A.K7P2");
    }
    const state = h.world.entrance as EntranceState;
    // The log trims to the cap once it is a quarter over it (amortized O(1) a scan): never more than 5 here.
    expect(state.scans.length).toBeLessThanOrEqual(5);
    expect(state.scans.at(-1)?.result).toBe("admitted");
    expect(retainedEntranceRecords(state)).toBe(state.scans.length + 1);
    const occ = await h.call(entrance, "getEventOccupancy", { params: { eventId: "evt_CONCERT" } });
    expect(occ.body).toMatchObject({
      inside: 1,
      admittedTotal: 10,
      exitedTotal: 9,
      deniedTotal: 1,
      byGate: [
        { gateId: MAIN, admitted: 10, exited: 0, denied: 1 },
        { gateId: EXIT, admitted: 0, exited: 9, denied: 0 },
      ],
      updatedAt: new Date(h.clock.now()).toISOString(),
    });
    // The gate's list and the report cover the retained log.
    const listed = (await h.call(entrance, "listGateScans", { params: { gateId: MAIN } })).body;
    expect(listed.items.length).toBe(state.scans.filter((s) => s.direction === "in").length);
  });

  it("refuses a custom Quicode category beyond maxCategories with a 409 that names the limit", async () => {
    const { h } = setup({ entrance: { maxCategories: 1 } });
    const create = (name: string) =>
      h.call(entrance, "createQuicodeCategory", { body: { name, pattern: "^VIP-" }, culture: "en-GB" });
    expect((await create("VIP")).status).toBe(201);
    const refused = await h.problem(entrance, "createQuicodeCategory", {
      body: { name: "Press", pattern: "^PRS-" },
      culture: "en-GB",
    });
    expect(refused.slug).toBe("conflict");
    expect(refused.detail).toBe(
      "This mock keeps at most 1 custom categories per session (seed `entrance.maxCategories`).",
    );
    const listed = (await h.call(entrance, "listQuicodeCategories", {})).body;
    expect(listed.items).toHaveLength(3);
  });

  it("keeps at most maxScans tickets' presence, the oldest admitted going first", () => {
    const state = initialEntranceState({ maxScans: 2 });
    for (const id of ["tkt_1", "tkt_2", "tkt_3"])
      setPresence(state, id, { inside: true, lastAdmittedAt: null });
    setPresence(state, "tkt_3", { inside: false, lastAdmittedAt: null });
    expect(Object.keys(state.presence)).toEqual(["tkt_2", "tkt_3"]);
    expect(state.presenceCount).toBe(2);
  });

  it("ignores a bad maxScans, and rebuilds the counters of a snapshot taken before they existed", async () => {
    expect(initialEntranceState({ maxScans: -1 }).maxScans).toBe(100_000);
    expect(initialEntranceState({ maxScans: "9" }).maxScans).toBe(100_000);
    const { h, scan, exit } = setup();
    await scan("Q1.tkt_A.K7P2");
    await exit("Q1.tkt_A.K7P2");
    const state = h.world.entrance as EntranceState;
    const counted = structuredClone(occupancies(state));
    delete state.occupancy;
    expect(occupancies(state)).toEqual(counted);
    expect(counted.evt_CONCERT).toMatchObject({ admitted: 1, exited: 1, denied: 0 });
  });
});
