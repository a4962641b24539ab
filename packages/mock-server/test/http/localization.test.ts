import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, startApi } from "../helpers.ts";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi();
  token = await api.token();
});
afterAll(() => api.close());

async function eventName(acceptLanguage?: string) {
  const headers = bearer(token, acceptLanguage === undefined ? {} : { "accept-language": acceptLanguage });
  const r = await api.fetch("/shop/v1/discovery/events?limit=1", { headers });
  return { response: r, body: await r.json() };
}

describe("Accept-Language", () => {
  it("translates every text and sets Content-Language and Vary", async () => {
    const names = new Map<string, string>();
    for (const culture of ["de-CH", "fr-CH", "it-CH", "en-GB"]) {
      const { response, body } = await eventName(culture);
      expect(response.headers.get("content-language")).toBe(culture);
      expect(response.headers.get("vary")).toContain("Accept-Language");
      names.set(culture, `${body.items[0].name}|${body.items[0].summary}|${body.items[0].venue.city}`);
    }
    expect(new Set(names.values()).size).toBe(4);
  });

  it("defaults to de-CH, honours q-values and falls back de-AT → de → de-CH", async () => {
    expect((await eventName()).response.headers.get("content-language")).toBe("de-CH");
    expect((await eventName("en-GB;q=0.5, fr-CH;q=0.9")).response.headers.get("content-language")).toBe(
      "fr-CH",
    );
    expect((await eventName("fr-FR")).response.headers.get("content-language")).toBe("fr-CH");
    expect((await eventName("de-AT")).response.headers.get("content-language")).toBe("de-CH");
    expect((await eventName("it")).response.headers.get("content-language")).toBe("it-CH");
    expect((await eventName("ja-JP, en;q=0.1")).response.headers.get("content-language")).toBe("en-GB");
    expect((await eventName("ja-JP")).response.headers.get("content-language")).toBe("de-CH");
    expect((await eventName("*")).response.headers.get("content-language")).toBe("de-CH");
    expect((await eventName("de-CH;q=0, *")).response.headers.get("content-language")).toBe("fr-CH");
  });

  it("rejects a malformed header with 400 pointing at it", async () => {
    for (const bad of ["en_GB", "de-CH;q=2", "12-34-", ";q=0.5", "en;level=1"]) {
      const { response, body } = await eventName(bad);
      expect(response.status, bad).toBe(400);
      expect(body.errors[0].pointer).toBe("/header/accept-language");
      expect(response.headers.get("content-language")).toBe("de-CH");
    }
  });

  it("localizes problems too, with Content-Language and Vary", async () => {
    const r = await api.fetch("/shop/v1/cart/crt_nothere", {
      headers: bearer(token, { "accept-language": "it-CH" }),
    });
    expect(r.status).toBe(404);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    expect(r.headers.get("content-language")).toBe("it-CH");
    expect(r.headers.get("vary")).toContain("Accept-Language");
    const body = await r.json();
    expect(body.title).toBe("Non trovato");
    expect(body.detail).toContain("Nessun carrello");
    const v = await api.fetch("/shop/v1/discovery/events?limit=0", {
      headers: bearer(token, { "accept-language": "fr-CH" }),
    });
    const problem = await v.json();
    expect(problem.title).toBe("Requête invalide");
    expect(problem.errors).toEqual([{ pointer: "/query/limit", detail: "Au moins 1." }]);
  });

  it("keeps the chosen culture through checkout: item names, tickets and the hosted page", async () => {
    const h = bearer(token, { "accept-language": "en-GB" });
    const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
    const event = await (
      await api.fetch(`/shop/v1/discovery/events/${list.items[2].id}`, { headers: h })
    ).json();
    const cart = await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json();
    const added = await (
      await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
        method: "POST",
        headers: h,
        json: {
          articleId: event.pricingAssortments[0].articles[0].id,
          slotId: event.slots[0].id,
          quantity: 1,
        },
      })
    ).json();
    expect(added.items[0].name).toBe(`${event.name} – ${event.pricingAssortments[0].articles[0].name}`);
    const de = await (
      await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token, { "accept-language": "de-CH" }) })
    ).json();
    expect(de.items[0].name).not.toBe(added.items[0].name);
  });
});
