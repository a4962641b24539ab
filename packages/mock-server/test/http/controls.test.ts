import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, type Cart, type EventDetail, readyCart, startApi } from "../helpers.ts";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi();
  token = await api.token();
});
afterAll(() => api.close());

const control = (path: string, init: RequestInit & { json?: unknown } = {}, session?: string) =>
  api.fetch(`/__mock${path}`, {
    ...init,
    headers: {
      ...(session ? { "x-mock-session": session } : {}),
      ...(init.headers as Record<string, string>),
    },
  });

async function available(eventId: string, session: string, sessionToken: string): Promise<number> {
  const headers = bearer(sessionToken, { "x-mock-session": session });
  const event = (await (
    await api.fetch(`/shop/v1/discovery/events/${eventId}`, { headers })
  ).json()) as EventDetail;
  return event.slots[0]?.available ?? -1;
}

describe("developer controls", () => {
  it("revokes one token when named, every token of the session otherwise", async () => {
    const session = "revoke-one";
    const events = (t: string) =>
      api.fetch("/shop/v1/discovery/events", { headers: bearer(t, { "x-mock-session": session }) });
    const issue = () => api.token("Shop", undefined, session);
    const [mine, theirs] = [await issue(), await issue()];
    const one = await control("/tokens/revoke", { method: "POST", json: { token: mine } }, session);
    expect(await one.json()).toEqual({ revoked: 1 });
    expect((await events(mine)).status).toBe(401);
    expect((await events(theirs)).status).toBe(200);
    const wrong = await control("/tokens/revoke", { method: "POST", json: { token: 42 } }, session);
    expect(wrong.status).toBe(400);
    expect((await control("/tokens/revoke", { method: "POST" }, session)).status).toBe(200);
    expect((await events(theirs)).status).toBe(401);
  });

  it("lists the controls at /__mock", async () => {
    const index = await (await control("")).json();
    const paths = index.controls.map((c: { method: string; path: string }) => `${c.method} ${c.path}`);
    for (const p of [
      "POST /__mock/reset",
      "POST /__mock/seed",
      "GET /__mock/snapshot",
      "POST /__mock/restore",
      "POST /__mock/clock",
      "POST /__mock/faults",
      "GET /__mock/events",
      "GET /__mock/pay/{paymentId}",
    ]) {
      expect(paths).toContain(p);
    }
    expect(index.demoClients[0].clientId).toBe("entrada-demo");
    const html = await control("", { headers: { accept: "text/html" } });
    expect(html.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const page = await html.text();
    expect(page).toContain("<code>/__mock/webhooks/deliveries</code>");
    expect(page).not.toMatch(/<script/i);
  });

  it("holds release seats when they expire on the mock clock; the cart is then expired and checkout refused", async () => {
    const session = "holds";
    const t = await tokenIn(session);
    const { cart, event } = await readyCart(api, t, { quantity: 4, headers: { "x-mock-session": session } });
    const free = event.slots[0]?.available ?? 0;
    expect(await available(event.id, session, t)).toBe(free - 4);
    await control("/clock", { method: "POST", json: { advanceSeconds: 599 } }, session);
    expect(await available(event.id, session, t)).toBe(free - 4);
    await control("/clock", { method: "POST", json: { advanceSeconds: 2 } }, session);
    expect(await available(event.id, session, t)).toBe(free);
    const h = bearer(t, { "x-mock-session": session });
    const paid = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: h,
      json: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(paid.status).toBe(409);
    expect((await paid.json()).type).toBe("https://docs.entrada.dev/problems/hold-expired");
    expect(await available(event.id, session, t)).toBe(free);
  });

  it("isolates sessions: a cart in one session does not exist in another or in the default", async () => {
    const a = await tokenIn("iso-a");
    const cart = (await (
      await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(a, { "x-mock-session": "iso-a" }) })
    ).json()) as Cart;
    const b = await tokenIn("iso-b");
    expect(
      (await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(b, { "x-mock-session": "iso-b" }) }))
        .status,
    ).toBe(404);
    // Tokens belong to their session too.
    expect((await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(a) })).status).toBe(401);
    const bad = await api.fetch("/shop/v1/discovery/venues", {
      headers: { "x-mock-session": "no spaces allowed" },
    });
    expect(bad.status).toBe(400);
    expect((await bad.json()).errors[0].pointer).toBe("/header/x-mock-session");
  });

  it("snapshots and restores a session, and resets it to the seed", async () => {
    const session = "snap";
    const t = await tokenIn(session);
    const h = bearer(t, { "x-mock-session": session });
    const snapshot = await (await control("/snapshot", {}, session)).json();
    const cart = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
    expect((await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: h })).status).toBe(200);
    expect((await control("/restore", { method: "POST", json: snapshot }, session)).status).toBe(200);
    expect((await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: h })).status).toBe(404);
    const again = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
    await control("/clock", { method: "POST", json: { advanceSeconds: 3600 } }, session);
    await control("/faults", { method: "POST", json: { kind: "latency", latencyMs: 1 } }, session);
    expect((await control("/reset", { method: "POST" }, session)).status).toBe(200);
    expect((await api.fetch(`/shop/v1/cart/${again.id}`, { headers: h })).status).toBe(404);
    // Reset also brings back real time and removes faults; the session's token still works.
    const clock = await (await control("/clock", {}, session)).json();
    expect(Math.abs(clock.epochMs - Date.now())).toBeLessThan(60_000);
    expect((await (await control("/faults", {}, session)).json()).items).toEqual([]);
    const badRestore = await control("/restore", { method: "POST", json: { world: 1 } }, session);
    expect(badRestore.status).toBe(400);
  });

  it("seeds a session from JSON: a custom catalogue", async () => {
    const session = "seeded";
    const seed = {
      shop: {
        catalogue: {
          venues: [
            {
              id: "ven_test1",
              name: "Testhalle",
              city: { "de-CH": "Basel", "fr-CH": "Bâle", "it-CH": "Basilea", "en-GB": "Basel" },
            },
          ],
          events: [
            {
              id: "evt_test1",
              slug: "test-event",
              venueId: "ven_test1",
              name: { "de-CH": "Testanlass", "en-GB": "Test event" },
              summary: "Summary",
              description: "Description",
              imageUrl: "https://assets.entrada.dev/x.jpg",
              surveyId: null,
              slots: [
                {
                  id: "slt_test1",
                  startsAt: "2099-01-01T18:00:00Z",
                  endsAt: "2099-01-01T20:00:00Z",
                  capacity: 5,
                },
              ],
              pricingAssortments: [
                {
                  id: "asr_test1",
                  name: "Standard",
                  articles: [
                    {
                      id: "art_test1",
                      slug: "standard",
                      name: "Standard",
                      description: "",
                      price: { CHF: 1000 },
                      maxPerOrder: 5,
                    },
                  ],
                },
              ],
            },
          ],
        },
      },
    };
    expect((await control("/seed", { method: "POST", json: seed }, session)).status).toBe(200);
    const t = await tokenIn(session);
    const h = bearer(t, { "x-mock-session": session, "accept-language": "en-GB" });
    const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
    expect(list.items.map((e: { name: string; venue: { city: string } }) => [e.name, e.venue.city])).toEqual([
      ["Test event", "Basel"],
    ]);
    const cart = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
    const r = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleId: "art_test1", slotId: "slt_test1", quantity: 6 },
    });
    expect(r.status).toBe(422);
    const full = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleId: "art_test1", slotId: "slt_test1", quantity: 5 },
    });
    expect(full.status).toBe(201);
    const other = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
    const sold = await api.fetch(`/shop/v1/cart/${other.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleId: "art_test1", slotId: "slt_test1", quantity: 1 },
    });
    expect(sold.status).toBe(409);
    expect((await sold.json()).type).toMatch(/sold-out$/);
  });

  it("injects faults per session: 503 and 429 with Retry-After, latency, dropped connections, limited by count", async () => {
    const session = "faults";
    const t = await tokenIn(session);
    const h = bearer(t, { "x-mock-session": session });
    await control(
      "/faults",
      {
        method: "POST",
        json: [{ kind: "unavailable", operationId: "listVenues", times: 1, retryAfterSeconds: 7 }],
      },
      session,
    );
    const down = await api.fetch("/shop/v1/discovery/venues", { headers: h });
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("7");
    expect((await down.json()).type).toMatch(/service-unavailable$/);
    expect((await api.fetch("/shop/v1/discovery/venues", { headers: h })).status).toBe(200);
    // Other sessions are untouched.
    await control(
      "/faults",
      { method: "POST", json: { kind: "rate-limit", path: "/shop/v1/discovery", retryAfterSeconds: 3 } },
      session,
    );
    const limited = await api.fetch("/shop/v1/discovery/venues", { headers: h });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("3");
    expect((await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token) })).status).toBe(200);
    await control("/faults", { method: "DELETE" }, session);
    await control("/faults", { method: "POST", json: { kind: "drop", times: 1 } }, session);
    await expect(api.fetch("/shop/v1/discovery/venues", { headers: h })).rejects.toThrow();
    await control(
      "/faults",
      { method: "POST", json: { kind: "latency", latencyMs: 120, times: 1 } },
      session,
    );
    const started = performance.now();
    expect((await api.fetch("/shop/v1/discovery/venues", { headers: h })).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    const invalid = await control("/faults", { method: "POST", json: { kind: "meteor" } }, session);
    expect(invalid.status).toBe(400);
  });

  it("injects an error rate: a reproducible share of 500s, the rest untouched", async () => {
    const session = "error-rate";
    const t = await tokenIn(session);
    const h = bearer(t, { "x-mock-session": session });
    await control(
      "/faults",
      { method: "POST", json: { kind: "error", probability: 0.5, operationId: "listVenues" } },
      session,
    );
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++)
      statuses.push((await api.fetch("/shop/v1/discovery/venues", { headers: h })).status);
    const errors = statuses.filter((s) => s === 500).length;
    expect(errors).toBeGreaterThan(5);
    expect(errors).toBeLessThan(35);
    expect(statuses.filter((s) => s === 200).length).toBe(40 - errors);
    // Other operations are not affected.
    expect((await api.fetch("/shop/v1/system/configuration", { headers: h })).status).toBe(200);
  });

  it("answers unknown routes with 404 and wrong methods with 405 + Allow, as problems", async () => {
    const nf = await api.fetch("/shop/v1/nothing", { headers: bearer(token) });
    expect(nf.status).toBe(404);
    expect(nf.headers.get("content-type")).toBe("application/problem+json");
    const na = await api.fetch("/shop/v1/discovery/events", { method: "DELETE", headers: bearer(token) });
    expect(na.status).toBe(405);
    expect(na.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    expect((await na.json()).type).toMatch(/method-not-allowed$/);
  });

  it("rate-limits per client with RateLimit headers and 429 + Retry-After", async () => {
    const limited = await startApi({ rateLimit: { limit: 3, windowSeconds: 60 } });
    try {
      const t = await limited.token();
      const first = await limited.fetch("/shop/v1/discovery/venues", { headers: bearer(t) });
      expect(first.headers.get("ratelimit-limit")).toBe("3");
      expect(first.headers.get("ratelimit-remaining")).toBe("2");
      await limited.fetch("/shop/v1/discovery/venues", { headers: bearer(t) });
      await limited.fetch("/shop/v1/discovery/venues", { headers: bearer(t) });
      const over = await limited.fetch("/shop/v1/discovery/venues", { headers: bearer(t) });
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await limited.close();
    }
  });
});

async function tokenIn(session: string): Promise<string> {
  const r = await api.fetch("/connect/token", {
    method: "POST",
    headers: {
      "x-mock-session": session,
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  return (await r.json()).access_token;
}
