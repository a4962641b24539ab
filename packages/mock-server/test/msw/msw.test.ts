import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createMock } from "../../src/msw/index.ts";

const BASE = "https://api.entrada.dev";
const mock = createMock({ baseUrl: BASE, validateResponses: "strict", rateLimit: false });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => mock.reset());
afterAll(() => server.close());

async function token(): Promise<string> {
  const r = await fetch(`${BASE}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  expect(r.status).toBe(200);
  return (await r.json()).access_token;
}

describe("msw transport (setupServer)", () => {
  it("serves the same engine: discovery, cart, checkout with the test card", async () => {
    const auth = { authorization: `Bearer ${await token()}`, "accept-language": "en-GB" };
    const list = await (await fetch(`${BASE}/shop/v1/discovery/events?limit=3`, { headers: auth })).json();
    expect(list.items).toHaveLength(3);
    const event = await (
      await fetch(`${BASE}/shop/v1/discovery/events/${list.items[0].id}`, { headers: auth })
    ).json();
    const json = { ...auth, "content-type": "application/json" };
    const created = await fetch(`${BASE}/shop/v1/cart`, {
      method: "POST",
      headers: { ...json, "idempotency-key": "msw-1" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("x-log-id")).toMatch(/^log_[0-9A-Z]{26}$/);
    const cart = await created.json();
    const replay = await fetch(`${BASE}/shop/v1/cart`, {
      method: "POST",
      headers: { ...json, "idempotency-key": "msw-1" },
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect((await replay.json()).id).toBe(cart.id);
    const article = event.pricingAssortments[0].articles[0];
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ articleSlug: article.slug, slotId: event.slots[0].id, quantity: 2 }),
    });
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/customer`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ firstName: "Luca", lastName: "Rossi", email: "luca@example.ch" }),
    });
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/payment-provider`, {
      method: "PUT",
      headers: json,
      body: JSON.stringify({ paymentProviderId: "card" }),
    });
    const paid = await fetch(`${BASE}/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ paymentMethod: { cardNumber: "4242424242424242" } }),
    });
    expect(paid.status).toBe(200);
    const result = await paid.json();
    expect(result.order.tickets).toHaveLength(2);
    expect(
      result.order.tickets[0].ticketUrl.startsWith(
        `${BASE}/assets/v1/tickets/${result.order.tickets[0].id}.pdf?`,
      ),
    ).toBe(true);
    // The signed link opens without a bearer token, through msw as through the standalone server.
    const pdf = await fetch(result.order.tickets[0].ticketUrl);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(mock.core.responseViolations).toEqual([]);
  });

  it("completes a redirect payment in-process (for browser-only setups) and the journey resumes", async () => {
    const auth = { authorization: `Bearer ${await token()}`, "content-type": "application/json" };
    const list = await (await fetch(`${BASE}/shop/v1/discovery/events`, { headers: auth })).json();
    const event = await (
      await fetch(`${BASE}/shop/v1/discovery/events/${list.items[0].id}`, { headers: auth })
    ).json();
    const cart = await (await fetch(`${BASE}/shop/v1/cart`, { method: "POST", headers: auth })).json();
    const items = {
      articleId: event.pricingAssortments[0].articles[0].id,
      slotId: event.slots[0].id,
      quantity: 1,
    };
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/items`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify(items),
    });
    const customer = { firstName: "Mia", lastName: "Keller", email: "mia@example.ch" };
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/customer`, {
      method: "PUT",
      headers: auth,
      body: JSON.stringify(customer),
    });
    const provider = JSON.stringify({ paymentProviderId: "redirect" });
    await fetch(`${BASE}/shop/v1/cart/${cart.id}/payment-provider`, {
      method: "PUT",
      headers: auth,
      body: provider,
    });
    const checkout = await fetch(`${BASE}/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ returnUrl: "http://localhost:5173/shop?step=return" }),
    });
    const { paymentId } = await checkout.json();
    const back = new URL(await mock.completePayment(paymentId, "success"));
    expect(back.searchParams.get("entrada_result")).toBe("success");
    expect(back.searchParams.get("step")).toBe("return");
    const payment = await (await fetch(`${BASE}/shop/v1/payments/${paymentId}`, { headers: auth })).json();
    expect(payment.status).toBe("succeeded");
    await expect(mock.completePayment("pay_unknown", "success")).rejects.toThrow(/404/);
  });

  it("validates requests and answers problems with pointers", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const bad = await fetch(`${BASE}/shop/v1/cart`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ currency: 5, extra: true }),
    });
    expect(bad.status).toBe(400);
    const problem = await bad.json();
    expect([...new Set(problem.errors.map((e: { pointer: string }) => e.pointer))].sort()).toEqual([
      "/body/currency",
      "/body/extra",
    ]);
  });

  it("drops connections as network errors when asked", async () => {
    await fetch(`${BASE}/__mock/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kind: "drop", times: 1 }),
    });
    await expect(fetch(`${BASE}/shop/v1/discovery/venues`)).rejects.toThrow();
    mock.core.session().faults = [];
  });

  it("reset() gives every test a fresh world", async () => {
    const auth = { authorization: `Bearer ${await token()}` };
    const cart = await (await fetch(`${BASE}/shop/v1/cart`, { method: "POST", headers: auth })).json();
    mock.reset();
    expect((await fetch(`${BASE}/shop/v1/cart/${cart.id}`, { headers: auth })).status).toBe(404);
  });

  it("supports a base URL with a path prefix", async () => {
    const prefixed = createMock({ baseUrl: "http://localhost:5173/api", rateLimit: false });
    server.use(...prefixed.handlers);
    const r = await fetch("http://localhost:5173/api/shop/v1/discovery/venues");
    expect(r.status).toBe(401);
    expect((await r.json()).instance).toBe("/shop/v1/discovery/venues");
    const index = await (await fetch("http://localhost:5173/api/__mock")).json();
    expect(index.name).toBe("Entrada mock server");
    server.resetHandlers();
  });
});

describe("msw transport with webhook delivery", () => {
  it("delivers through the fetch it is given", async () => {
    const deliveries: Array<{ url: string; body: string; headers: Record<string, string> }> = [];
    const withHooks = createMock({
      baseUrl: "https://hooks.entrada.dev",
      rateLimit: false,
      deliverWebhooks: async (url, init) => {
        deliveries.push({ url, body: init.body, headers: init.headers });
        return { status: 204, headers: { get: () => null }, text: async () => "" };
      },
    });
    server.use(...withHooks.handlers);
    try {
      const tokenResponse = await fetch("https://hooks.entrada.dev/connect/token", {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=Shop",
      });
      const auth = {
        authorization: `Bearer ${(await tokenResponse.json()).access_token}`,
        "content-type": "application/json",
      };
      const sub = await fetch("https://hooks.entrada.dev/webhooks/v1/subscriptions", {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ url: "https://receiver.example.ch/hooks", eventTypes: ["cart.created"] }),
      });
      expect(sub.status).toBe(201);
      await fetch("https://hooks.entrada.dev/shop/v1/cart", { method: "POST", headers: auth });
      await expect.poll(() => deliveries.length, { timeout: 5000 }).toBeGreaterThan(0);
      expect(deliveries[0]?.url).toBe("https://receiver.example.ch/hooks");
      expect(JSON.parse(deliveries[0]?.body ?? "{}").type).toBe("cart.created");
      expect(deliveries[0]?.headers["webhook-signature"]).toMatch(/^v1,/);
    } finally {
      await withHooks.close();
      server.resetHandlers();
    }
  });
});
