// Cursors carry the position (sort key and id), not the item: a client that pages while another deletes (a badge
// app syncing) keeps going, skipping nothing and repeating nothing (issue 18).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badgeQr } from "../../src/sections/connections/index.ts";
import { type Api, bearer, problemOf, startApi } from "../helpers.ts";

let api: Api;
let terp: string;
let shop: string;
beforeAll(async () => {
  api = await startApi();
  terp = await api.token("TERP");
  shop = await api.token("Shop");
});
afterAll(() => api.close());

interface Page {
  items: { id: string }[];
  nextCursor: string | null;
}

async function page(path: string, token: string): Promise<Page> {
  const response = await api.fetch(path, { headers: bearer(token) });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as Page;
}

/** Pages through `list` one item at a time, deleting each item right after its page. */
async function pageWhileDeleting(list: string, remove: (id: string) => Promise<number>, token: string) {
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const sep = list.includes("?") ? "&" : "?";
    const got: Page = await page(`${list}${sep}limit=1${cursor ? `&cursor=${cursor}` : ""}`, token);
    for (const item of got.items) {
      seen.push(item.id);
      expect(await remove(item.id)).toBe(204);
    }
    cursor = got.nextCursor;
  } while (cursor);
  return seen;
}

describe("keyset cursors", () => {
  it("a badge's contacts: the next page works after the contact on this page is deleted", async () => {
    for (const other of ["bdg_claire", "bdg_luca", "bdg_james", "bdg_mia"]) {
      const scan = await api.fetch("/connections/v1/scans", {
        method: "POST",
        headers: bearer(terp),
        json: { scannerBadgeId: "bdg_anna", scannedBadgeQr: badgeQr(other) },
      });
      expect(scan.status).toBe(201);
    }
    const contacts = "/connections/v1/badges/bdg_anna/contacts";
    const all = (await page(`${contacts}?limit=100`, terp)).items.map((c) => c.id);
    expect(all).toHaveLength(4);
    const seen = await pageWhileDeleting(
      contacts,
      async (id) =>
        (await api.fetch(`${contacts}/${id}`, { method: "DELETE", headers: bearer(terp) })).status,
      terp,
    );
    expect(seen).toEqual(all);
  });

  it("webhook subscriptions: the same, on another list that shares the paging helper", async () => {
    for (let i = 0; i < 3; i++) {
      const created = await api.fetch("/webhooks/v1/subscriptions", {
        method: "POST",
        headers: bearer(shop),
        json: { url: `https://hooks.example.com/${i}`, eventTypes: ["cart.completed"] },
      });
      expect(created.status, await created.clone().text()).toBe(201);
    }
    const list = "/webhooks/v1/subscriptions";
    const all = (await page(`${list}?limit=100`, shop)).items.map((s) => s.id);
    expect(all.length).toBeGreaterThanOrEqual(3);
    const seen = await pageWhileDeleting(
      list,
      async (id) => (await api.fetch(`${list}/${id}`, { method: "DELETE", headers: bearer(shop) })).status,
      shop,
    );
    expect(seen).toEqual(all);
  });

  it("a cursor that is not ours is still a 400 on /query/cursor", async () => {
    const response = await api.fetch("/connections/v1/badges/bdg_anna/contacts?cursor=bm90LW91cnM", {
      headers: bearer(terp),
    });
    expect(response.status).toBe(400);
    expect((await problemOf(response)).errors?.[0]?.pointer).toBe("/query/cursor");
  });
});
