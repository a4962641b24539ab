import { describe, expect, it } from "vitest";
import { createClient, EntradaProblemError, paginate } from "../../src/index.ts";
import { CREDENTIALS, fakeApi, json, problem } from "../helpers.ts";

function pagedEvents(total: number, pageSize: number) {
  return fakeApi((req) => {
    const url = new URL(req.url);
    const start = Number(url.searchParams.get("cursor") ?? "0");
    const items = Array.from({ length: Math.min(pageSize, total - start) }, (_, i) => ({
      id: `evt_${start + i}`,
    }));
    const next = start + pageSize < total ? String(start + pageSize) : null;
    return json(200, { items, nextCursor: next });
  });
}

describe("paginate", () => {
  it("follows nextCursor across pages and keeps the other query parameters", async () => {
    const api = pagedEvents(7, 3);
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const ids: string[] = [];
    for await (const event of paginate(client.shop.listEvents, {
      params: { query: { venueId: "ven_1", limit: 3 } },
    })) {
      ids.push(event.id);
    }
    expect(ids).toEqual(["evt_0", "evt_1", "evt_2", "evt_3", "evt_4", "evt_5", "evt_6"]);
    expect(api.calls.map((c) => new URL(c.url).search)).toEqual([
      "?venueId=ven_1&limit=3",
      "?venueId=ven_1&limit=3&cursor=3",
      "?venueId=ven_1&limit=3&cursor=6",
    ]);
  });

  it("accepts just { query } as the second argument", async () => {
    const api = pagedEvents(4, 2);
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const all = await paginate(client.shop.listEvents, { query: { venueId: "ven_9", limit: 2 } }).all();
    expect(all).toHaveLength(4);
    expect(api.calls.map((c) => new URL(c.url).search)).toEqual([
      "?venueId=ven_9&limit=2",
      "?venueId=ven_9&limit=2&cursor=2",
    ]);
  });

  it("collects with a maximum and stops fetching once it is reached", async () => {
    const api = pagedEvents(100, 10);
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const first = await paginate(client.shop.listEvents).all({ max: 15 });
    expect(first).toHaveLength(15);
    expect(api.calls).toHaveLength(2);
    expect(await paginate(client.shop.listEvents).all({ max: 0 })).toEqual([]);
  });

  it("iterates page by page with meta", async () => {
    const api = pagedEvents(5, 2);
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const sizes: number[] = [];
    for await (const page of paginate(client.shop.listEvents).pages()) {
      sizes.push(page.data.items.length);
      expect(page.meta.attempts).toBe(1);
    }
    expect(sizes).toEqual([2, 2, 1]);
  });

  it("rejects with the typed error of a failing page", async () => {
    const api = fakeApi((_req, i) =>
      i === 0 ? json(200, { items: [{ id: "a" }], nextCursor: "x" }) : problem(400, "validation-error"),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    await expect(paginate(client.shop.listEvents).all()).rejects.toBeInstanceOf(EntradaProblemError);
  });

  it("stops when the server repeats a cursor instead of looping forever", async () => {
    const api = fakeApi(() => json(200, { items: [{ id: "a" }], nextCursor: "same" }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    await expect(paginate(client.shop.listEvents).all()).rejects.toThrow(/repeated cursor/);
    expect(api.calls).toHaveLength(2);
  });
});
