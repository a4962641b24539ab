import { describe, expect, it } from "vitest";
import externalEntrance from "../../src/sections/external-entrance/index.ts";
import { fakeShop, harness } from "./context.ts";

describe("external entrance: import and reconciliation", () => {
  it("accepts, counts duplicates and rejects lines with pointers; every line is counted once", async () => {
    const h = harness([externalEntrance], { slices: fakeShop() });
    const first = await h.call(externalEntrance, "createExternalImport", {
      body: {
        vendor: "eventbrite",
        tickets: [
          { externalId: "1", quicode: "EVB-1", eventId: "evt_CONCERT", holderName: "Luca Rossi" },
          {
            externalId: "2",
            quicode: "EVB-2",
            eventId: "evt_CONCERT",
            validFrom: "2026-12-05T17:00:00Z",
            validUntil: "2026-12-05T23:00:00Z",
          },
        ],
      },
    });
    expect(first.status).toBe(202);
    expect(first.headers?.location).toMatch(/\/external-entrance\/v1\/imports\/imp_/);
    expect(first.body).toMatchObject({
      status: "completed",
      lineCount: 2,
      counts: { accepted: 2, duplicate: 0, rejected: 0 },
      errors: [],
    });

    const second = await h.call(externalEntrance, "createExternalImport", {
      culture: "en-GB",
      body: {
        vendor: "eventbrite",
        tickets: [
          { externalId: "1", quicode: "EVB-1", eventId: "evt_CONCERT", holderName: "Luca Rossi" }, // identical re-send
          { externalId: "2", quicode: "EVB-2-CHANGED", eventId: "evt_CONCERT" }, // changed
          { externalId: "3", quicode: "EVB-3", eventId: "evt_NOSUCH" },
          {
            externalId: "4",
            quicode: "EVB-4",
            eventId: "evt_CONCERT",
            validFrom: "2026-12-05T23:00:00Z",
            validUntil: "2026-12-05T17:00:00Z",
          },
          { externalId: "5", quicode: "Q1.tkt_A.K7P2", eventId: "evt_CONCERT" }, // collides with a shop ticket
          { externalId: "6", quicode: "EVB-6", eventId: "evt_FAIR" },
          { externalId: "6", quicode: "EVB-6b", eventId: "evt_FAIR" }, // duplicate externalId in batch
          { externalId: "7", quicode: "EVB-6", eventId: "evt_FAIR" }, // duplicate quicode in batch
        ],
      },
    });
    const body = second.body;
    expect(body.lineCount).toBe(8);
    expect(body.counts).toEqual({ accepted: 1, duplicate: 1, rejected: 6 });
    expect(body.counts.accepted + body.counts.duplicate + body.counts.rejected).toBe(body.lineCount);
    expect(body.errors.map((e) => [e.pointer, e.code])).toEqual([
      ["/body/tickets/1", "changed_duplicate"],
      ["/body/tickets/2/eventId", "unknown_event"],
      ["/body/tickets/3/validUntil", "invalid_validity"],
      ["/body/tickets/4/quicode", "quicode_conflict"],
      ["/body/tickets/6/externalId", "duplicate_in_batch"],
      ["/body/tickets/7/quicode", "duplicate_in_batch"],
    ]);
    expect(body.errors[1]?.detail).toBe("The event evt_NOSUCH does not exist.");
    expect(body.errors[4]?.detail).toBe("Line 5 of this import has the same value.");
    expect(h.emitted.map((e) => e.type)).toEqual([
      "entrance.external_import_completed",
      "entrance.external_import_completed",
    ]);
    expect(h.emitted[1]?.data).toMatchObject({
      import: { id: body.id, counts: { accepted: 1, duplicate: 1, rejected: 6 } },
    });

    // The changed line did not alter the first import's ticket.
    const tickets = (
      await h.call(externalEntrance, "listExternalTickets", {
        query: { externalId: "2", vendor: "eventbrite" },
      })
    ).body;
    expect(tickets.items).toEqual([
      expect.objectContaining({ quicode: "EVB-2", validFrom: "2026-12-05T17:00:00Z" }),
    ]);
  });

  it("defaults validity from the event, and a different vendor may reuse an external id", async () => {
    const h = harness([externalEntrance], { slices: fakeShop() });
    await h.call(externalEntrance, "createExternalImport", {
      body: { vendor: "eventbrite", tickets: [{ externalId: "1", quicode: "A", eventId: "evt_FAIR" }] },
    });
    const other = await h.call(externalEntrance, "createExternalImport", {
      body: { vendor: "pretix", tickets: [{ externalId: "1", quicode: "B", eventId: "evt_FAIR" }] },
    });
    expect(other.body.counts.accepted).toBe(1);
    const list = (await h.call(externalEntrance, "listExternalTickets", { query: { vendor: "eventbrite" } }))
      .body;
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      validFrom: "2026-12-05T07:00:00.000Z",
      validUntil: "2026-12-05T20:00:00.000Z",
      holderName: null,
    });
    expect(list.items[0]?.id).toMatch(/^xtk_/);
  });

  it("gets and lists imports newest first, and 404s unknown ones", async () => {
    const h = harness([externalEntrance], { slices: fakeShop() });
    const a = (
      await h.call(externalEntrance, "createExternalImport", {
        body: { vendor: "eventbrite", tickets: [{ externalId: "1", quicode: "A", eventId: "evt_FAIR" }] },
      })
    ).body;
    const b = (
      await h.call(externalEntrance, "createExternalImport", {
        body: { vendor: "pretix", tickets: [{ externalId: "1", quicode: "B", eventId: "evt_NOPE" }] },
      })
    ).body;
    const got = await h.call(externalEntrance, "getExternalImport", { params: { importId: b.id } });
    expect(got.body).toMatchObject({
      id: b.id,
      counts: { rejected: 1 },
      errors: [{ code: "unknown_event" }],
    });
    const list = (await h.call(externalEntrance, "listExternalImports", {})).body;
    expect(list.items.map((i) => i.id)).toEqual([b.id, a.id]);
    expect(list.items[0]).not.toHaveProperty("errors");
    const filtered = (
      await h.call(externalEntrance, "listExternalImports", { query: { vendor: "eventbrite" } })
    ).body;
    expect(filtered.items.map((i) => i.id)).toEqual([a.id]);
    expect(
      (await h.problem(externalEntrance, "getExternalImport", { params: { importId: "imp_NOPE" } })).slug,
    ).toBe("not-found");
  });
});

describe("external entrance: bounded by design", () => {
  it("keeps at most maxTickets tickets and maxImports reports, the oldest going first", async () => {
    const h = harness([externalEntrance], {
      slices: fakeShop(),
      seed: { externalEntrance: { maxTickets: 3, maxImports: 2 } },
    });
    const send = (ids: string[]) =>
      h.call(externalEntrance, "createExternalImport", {
        body: {
          vendor: "pretix",
          tickets: ids.map((id) => ({ externalId: id, quicode: `PTX-${id}`, eventId: "evt_CONCERT" })),
        },
      });
    const first = (await send(["1", "2"])).body;
    await send(["3", "4"]);
    await send(["5"]);
    const tickets = (await h.call(externalEntrance, "listExternalTickets", {})).body;
    expect(tickets.items.map((t) => t.externalId).sort()).toEqual(["3", "4", "5"]);
    expect(
      (await h.problem(externalEntrance, "getExternalImport", { params: { importId: first.id } })).slug,
    ).toBe("not-found");
    expect(externalEntrance.retained?.(h.world.externalEntrance)).toBe(5);
    // A dropped ticket's vendor id and Quicode are free again: importing it anew is accepted, not a duplicate.
    const again = (await send(["1"])).body;
    expect(again.counts).toEqual({ accepted: 1, duplicate: 0, rejected: 0 });
  });
});
