import { describe, expect, it } from "vitest";
import connections, { badgeQr, decodeBadgeQr } from "../../src/sections/connections/index.ts";
import { harness } from "./context.ts";

type Connection = {
  id: string;
  badgeId: string;
  mode: string;
  note: string | null;
  mutualSince: string | null;
  contact: { badgeId: string; name: string; email: string | null };
};

describe("connections: badge QR payloads", () => {
  it("round-trips and rejects a wrong checksum or shape", () => {
    const qr = badgeQr("bdg_anna");
    expect(qr).toMatch(/^B1\.bdg_anna\.[0-9A-Z]{4}$/);
    expect(decodeBadgeQr(qr)).toBe("bdg_anna");
    expect(decodeBadgeQr(qr.replace(/.$/, (c) => (c === "0" ? "1" : "0")))).toBeNull();
    expect(decodeBadgeQr("B1.bdg_anna")).toBeNull();
  });
});

describe("connections: scans and contacts", () => {
  const scan = (h: ReturnType<typeof harness>, scanner: string, scanned: string, note?: string) =>
    h.call(connections, "createConnectionScan", {
      body: { scannerBadgeId: scanner, scannedBadgeQr: badgeQr(scanned), ...(note ? { note } : {}) },
    });

  it("creates a one-directional contact without the e-mail, upgrades both sides to mutual on the return scan", async () => {
    const h = harness([connections]);
    const first = await scan(h, "bdg_anna", "bdg_claire", "Gruppentickets");
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      badgeId: "bdg_anna",
      mode: "one-directional",
      note: "Gruppentickets",
      mutualSince: null,
      contact: { badgeId: "bdg_claire", name: "Claire Dubois", company: "Festival Lumière SA", email: null },
    });
    h.clock.advance(120_000);
    const back = await scan(h, "bdg_claire", "bdg_anna");
    expect(back.status).toBe(201);
    const mutualSince = new Date(h.clock.now()).toISOString();
    expect(back.body).toMatchObject({
      mode: "mutual",
      mutualSince,
      contact: { email: "anna.muster@example.ch" },
    });
    const annas = (await h.call(connections, "listBadgeContacts", { params: { badgeId: "bdg_anna" } })).body;
    expect(annas.items).toEqual([
      expect.objectContaining({
        mode: "mutual",
        mutualSince,
        contact: expect.objectContaining({ email: "claire.dubois@lumiere.example" }),
      }),
    ]);
  });

  it("returns the existing contact with 200 on a repeated scan, replacing the note, never duplicating", async () => {
    const h = harness([connections]);
    const first = (await scan(h, "bdg_anna", "bdg_luca", "alt")).body;
    const again = await scan(h, "bdg_anna", "bdg_luca", "neu");
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.id, note: "neu" });
    const keep = await scan(h, "bdg_anna", "bdg_luca");
    expect(keep.body).toMatchObject({ note: "neu" });
    const list = (await h.call(connections, "listBadgeContacts", { params: { badgeId: "bdg_anna" } })).body;
    expect(list.items).toHaveLength(1);
  });

  it("filters by mode, lists newest first, and deleting one side downgrades the other", async () => {
    const h = harness([connections]);
    await scan(h, "bdg_anna", "bdg_claire");
    h.clock.advance(1000);
    await scan(h, "bdg_anna", "bdg_luca");
    h.clock.advance(1000);
    await scan(h, "bdg_claire", "bdg_anna");
    const all = (await h.call(connections, "listBadgeContacts", { params: { badgeId: "bdg_anna" } })).body;
    expect(all.items.map((c) => c.contact.badgeId)).toEqual(["bdg_luca", "bdg_claire"]);
    const mutual = (
      await h.call(connections, "listBadgeContacts", {
        params: { badgeId: "bdg_anna" },
        query: { mode: "mutual" },
      })
    ).body;
    expect(mutual.items.map((c) => c.contact.badgeId)).toEqual(["bdg_claire"]);

    const annaToClaire = all.items[1] as Connection;
    const del = await h.call(connections, "deleteBadgeContact", {
      params: { badgeId: "bdg_anna", contactId: annaToClaire.id },
    });
    expect(del.status).toBe(204);
    const claires = (await h.call(connections, "listBadgeContacts", { params: { badgeId: "bdg_claire" } }))
      .body;
    expect(claires.items).toEqual([
      expect.objectContaining({
        mode: "one-directional",
        mutualSince: null,
        contact: expect.objectContaining({ email: null }),
      }),
    ]);
    // The contact belongs to Anna's list only: Claire cannot delete it through her badge.
    expect(
      (
        await h.problem(connections, "deleteBadgeContact", {
          params: { badgeId: "bdg_claire", contactId: annaToClaire.id },
        })
      ).slug,
    ).toBe("not-found");
  });

  it("rejects unknown badges, forged payloads and self-scans", async () => {
    const h = harness([connections]);
    expect(
      (
        await h.problem(connections, "createConnectionScan", {
          body: { scannerBadgeId: "bdg_nope", scannedBadgeQr: badgeQr("bdg_anna") },
        })
      ).slug,
    ).toBe("not-found");
    for (const qr of ["B1.bdg_anna.ZZZZ", badgeQr("bdg_ghost"), "hello", badgeQr("bdg_anna")]) {
      const p = await h.problem(connections, "createConnectionScan", {
        body: { scannerBadgeId: "bdg_anna", scannedBadgeQr: qr },
      });
      expect([qr, p.slug]).toEqual([qr, "unprocessable"]);
      expect(p.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/body/scannedBadgeQr" })]);
    }
    expect(
      (await h.problem(connections, "listBadgeContacts", { params: { badgeId: "bdg_nope" } })).slug,
    ).toBe("not-found");
  });
});
