import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, problemOf, startApi } from "../helpers.ts";

/**
 * `GET /shop/v1/discovery/events?include=slots,assortments` (issue 19): the catalogue with every event's slots and
 * pricing assortments, over real HTTP with response validation strict (a body off the contract is a 500 here).
 */
let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi();
  token = await api.token();
});
afterAll(() => api.close());

interface Assortment {
  id: string;
  name: string;
  articles: Array<{ id: string; name: string }>;
}
interface EventDetail {
  id: string;
  slots: Array<{ id: string; available: number }>;
  pricingAssortments: Assortment[];
}
interface Page {
  items: Array<EventDetail & Record<string, unknown>>;
  nextCursor: string | null;
}

async function list(query: string, language = "en-GB"): Promise<{ response: Response; body: Page }> {
  const response = await api.fetch(`/shop/v1/discovery/events${query}`, {
    headers: bearer(token, { "accept-language": language }),
  });
  return { response, body: (await response.json()) as Page };
}

/** The problem+json answer to a listing with `query`. */
async function listProblem(query: string, language = "en-GB") {
  const response = await api.fetch(`/shop/v1/discovery/events${query}`, {
    headers: bearer(token, { "accept-language": language }),
  });
  return { response, body: await problemOf(response) };
}

async function detail(id: string, language = "en-GB"): Promise<EventDetail> {
  const response = await api.fetch(`/shop/v1/discovery/events/${id}`, {
    headers: bearer(token, { "accept-language": language }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as EventDetail;
}

describe("include=slots,assortments", () => {
  it("embeds each event's slots and assortments exactly as getEvent returns them", async () => {
    const { response, body } = await list("?include=slots,assortments&limit=5");
    expect(response.status).toBe(200);
    expect(body.items).toHaveLength(5);
    for (const item of body.items) {
      const event = await detail(item.id);
      expect(item.slots).toEqual(event.slots);
      expect(item.pricingAssortments).toEqual(event.pricingAssortments);
      // The detail-only fields stay on getEvent.
      expect(item).not.toHaveProperty("description");
      expect(item).not.toHaveProperty("surveyId");
    }
    // Articles are there, with ids a cart takes.
    expect(body.items[0]?.pricingAssortments[0]?.articles[0]?.id).toMatch(/^art_/);
  });

  it("keeps the summaries light without include, and embeds only what is asked for", async () => {
    const light = (await list("?limit=3")).body.items;
    for (const item of light) {
      expect(item).not.toHaveProperty("slots");
      expect(item).not.toHaveProperty("pricingAssortments");
    }
    const slotsOnly = (await list("?include=slots&limit=3")).body.items;
    expect(slotsOnly.every((i) => Array.isArray(i.slots) && !("pricingAssortments" in i))).toBe(true);
    const assortmentsOnly = (await list("?include=assortments&limit=3")).body.items;
    expect(assortmentsOnly.every((i) => Array.isArray(i.pricingAssortments) && !("slots" in i))).toBe(true);
    // Order does not matter; the summaries are the same with or without includes.
    const both = (await list("?include=assortments,slots&limit=3")).body.items;
    expect(both.map(({ slots, pricingAssortments, ...summary }) => summary)).toEqual(light);
  });

  it("localizes the embedded assortment and article names by Accept-Language", async () => {
    const names = new Set<string>();
    for (const culture of ["de-CH", "fr-CH", "it-CH", "en-GB"]) {
      const { response, body } = await list("?include=assortments&limit=1", culture);
      expect(response.headers.get("content-language")).toBe(culture);
      const first = body.items[0];
      const event = await detail(first?.id ?? "", culture);
      expect(first?.pricingAssortments).toEqual(event.pricingAssortments);
      const assortment = first?.pricingAssortments[0];
      names.add(`${assortment?.name}|${assortment?.articles.map((a) => a.name).join(",")}`);
    }
    expect(names.size).toBe(4);
  });

  it("pages with include as without: same events, same cursors, the include kept on every page", async () => {
    const pages = async (query: string) => {
      const out: Page[] = [];
      let cursor: string | null = null;
      do {
        const { body } = await list(`${query}${cursor ? `&cursor=${cursor}` : ""}`);
        out.push(body);
        cursor = body.nextCursor;
      } while (cursor && out.length < 50);
      return out;
    };
    const plain = await pages("?limit=4");
    const rich = await pages("?limit=4&include=slots,assortments");
    expect(plain.length).toBeGreaterThan(1);
    expect(rich.map((p) => p.nextCursor)).toEqual(plain.map((p) => p.nextCursor));
    expect(rich.flatMap((p) => p.items.map((i) => i.id))).toEqual(
      plain.flatMap((p) => p.items.map((i) => i.id)),
    );
    expect(
      rich.every((p) => p.items.every((i) => Array.isArray(i.slots) && Array.isArray(i.pricingAssortments))),
    ).toBe(true);
  });

  it("shows live availability in the embedded slots", async () => {
    const { body } = await list("?include=slots&limit=1");
    const event = await detail(body.items[0]?.id ?? "");
    const slot = event.slots[0];
    const article = event.pricingAssortments[0]?.articles[0];
    const cart = await (await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token) })).json();
    const added = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: bearer(token),
      json: { articleId: article?.id, slotId: slot?.id, quantity: 2 },
    });
    expect(added.status).toBe(201);
    const after = (await list("?include=slots&limit=1")).body.items[0]?.slots[0];
    expect(after?.available).toBe((slot?.available ?? 0) - 2);
  });
});

describe("include: bad values", () => {
  it("answers an unknown value with a 400 problem naming the parameter and the allowed values", async () => {
    const { response, body: problem } = await listProblem("?include=slots,prices");
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(problem.type).toMatch(/validation-error$/);
    expect(problem.errors).toEqual([
      { pointer: "/query/include/1", detail: "Allowed values: slots, assortments." },
    ]);
  });

  it("localizes the problem, and refuses empty and repeated values", async () => {
    const fr = await listProblem("?include=tickets", "fr-CH");
    expect(fr.response.status).toBe(400);
    expect(fr.body.errors).toEqual([
      { pointer: "/query/include/0", detail: "Valeurs autorisées : slots, assortments." },
    ]);
    const empty = await listProblem("?include=");
    expect(empty.response.status).toBe(400);
    expect(empty.body.errors?.[0]?.pointer).toBe("/query/include/0");
    const twice = await listProblem("?include=slots,slots");
    expect(twice.response.status).toBe(400);
    expect(twice.body.errors).toEqual([
      { pointer: "/query/include", detail: "Each value may appear only once." },
    ]);
  });
});
