import { randomUUID } from "node:crypto";
import { DEMO_CLIENTS, TEST_CARDS } from "@entrada/mock-server";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { createClient } from "@entrada/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CheckoutExampleOptions, main } from "../src/main.ts";

const demo = DEMO_CLIENTS.find((c) => c.scopes.includes("Shop") && c.scopes.includes("TERP"));
if (!demo?.secrets[0]) throw new Error("The mock has no demo client with scopes Shop and TERP");
const credentials = { clientId: demo.clientId, clientSecret: demo.secrets[0] };

function options(mock: MockServer, overrides: Partial<CheckoutExampleOptions> = {}) {
  const lines: string[] = [];
  const opts: CheckoutExampleOptions = {
    baseUrl: mock.url,
    ...credentials,
    locale: "en-GB",
    days: 60,
    articleSlug: "adult",
    quantity: 2,
    customer: { firstName: "Anna", lastName: "Muster", email: "anna.muster@example.com" },
    cardNumber: TEST_CARDS.succeeds,
    shopOrigin: "https://shop.example.com",
    orderReference: `test-${randomUUID()}`,
    mockClock: true,
    log: (line) => lines.push(line),
    ...overrides,
  };
  return { opts, lines };
}

async function mockJson<T>(mock: MockServer, path: string): Promise<T> {
  const response = await fetch(`${mock.url}${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

describe("node-checkout against the mock over HTTP", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false });
  });
  afterAll(() => mock?.close());

  it("buys tickets with Quicodes and links, creates a session token, and the scan admits once then denies", async () => {
    const { opts, lines } = options(mock);
    const result = await main(opts);
    if (result.status !== "completed") throw new Error(`expected a completed purchase, got ${result.status}`);

    expect(result.cartReplayed).toBe(true);
    expect(result.skipped).toEqual([]);
    const { order } = result;
    expect(order.status).toBe("paid");
    expect(order.cartId).toBe(result.cartId);
    expect(order.tickets).toHaveLength(2);
    for (const ticket of order.tickets) {
      expect(ticket.quicode).toMatch(new RegExp(`^Q1\\.${ticket.id}\\.[0-9A-Za-z]{4,16}$`));
      // A signed, expiring link (DECISIONS.md "Signed asset links"): it opens without a bearer token.
      const link = new URL(ticket.ticketUrl);
      expect(`${link.origin}${link.pathname}`).toBe(`${mock.url}/assets/v1/tickets/${ticket.id}.pdf`);
      expect(link.searchParams.get("signature")).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const opened = await fetch(ticket.ticketUrl);
      expect(opened.status).toBe(200);
      expect(opened.headers.get("content-type")).toMatch(/^application\/pdf/);
      await opened.arrayBuffer();
      expect(ticket.holderName).toBe("Anna Muster");
      expect(ticket.eventId).toBe(result.eventId);
      expect(ticket.slotId).toBe(result.slotId);
      expect(lines.some((l) => l.includes(ticket.quicode) && l.includes(ticket.ticketUrl))).toBe(true);
    }
    expect(result.ticketPdf).toEqual({
      ticketId: order.tickets[0]?.id,
      bytes: expect.any(Number),
      type: "application/pdf",
    });
    expect(result.ticketPdf.bytes).toBeGreaterThan(500);
    expect(result.session.allowedOrigins).toEqual(["https://shop.example.com"]);
    expect(Date.parse(result.session.expiresAt)).toBeGreaterThan(Date.now());

    const scanned = order.tickets[0];
    expect(result.scans.map((s) => [s.result, s.reason, s.ticket?.id])).toEqual([
      ["admitted", null, scanned?.id],
      ["denied", "already_used", scanned?.id],
    ]);

    // Idempotent cart creation: two calls, one cart, one cart.created event.
    const created = await mockJson<{ items: { type: string; data: { cart: { id: string } } }[] }>(
      mock,
      "/__mock/events?type=cart.created",
    );
    expect(created.items.filter((e) => e.data.cart.id === result.cartId)).toHaveLength(1);

    // The shop sees what the gate did: the scanned ticket is used, the other one still valid.
    const shop = createClient({ baseUrl: mock.url, ...credentials, scope: "Shop" });
    const { data: tickets } = await shop.shop.listOrderTickets.orThrow({
      params: { path: { orderId: order.id } },
    });
    const status = Object.fromEntries(tickets.items.map((t) => [t.id, t.status]));
    expect(status).toEqual({ [order.tickets[0]?.id ?? ""]: "used", [order.tickets[1]?.id ?? ""]: "valid" });

    // The example puts the mock's clock back to real time after the scan.
    const clock = await mockJson<{ epochMs: number; frozen: boolean }>(mock, "/__mock/clock");
    expect(clock.frozen).toBe(false);
    expect(Math.abs(clock.epochMs - Date.now())).toBeLessThan(60_000);
  });

  it("finds the article in the catalogue pages (include=slots,assortments), with no getEvent per event", async () => {
    const requests: string[] = [];
    const { opts } = options(mock, {
      // Every request the example sends: a getEvent (`/discovery/events/evt_…`) would fail the pattern below.
      fetch: (request) => {
        requests.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`);
        return fetch(request);
      },
    });
    const result = await main(opts);
    expect(result.status).toBe("completed");
    const discovery = requests.filter((r) => r.startsWith("GET /shop/v1/discovery/events"));
    expect(discovery.length).toBeGreaterThan(0);
    for (const r of discovery) {
      expect(r).toMatch(/^GET \/shop\/v1\/discovery\/events\?/);
      expect(new URLSearchParams(r.slice(r.indexOf("?"))).get("include")).toBe("slots,assortments");
    }
    // The cart's item is the listed event's, added by slug to one of its listed slots.
    expect(requests.filter((r) => /\/cart\/[^/]+\/items$/.test(r))).toHaveLength(1);
  });

  it("reports a declined card as an outcome and leaves the cart open with its items", async () => {
    const { opts } = options(mock, { cardNumber: TEST_CARDS.declines, locale: "de-CH" });
    const result = await main(opts);
    if (result.status !== "payment-declined") throw new Error(`expected a decline, got ${result.status}`);
    expect(result.detail).toBeTruthy();

    const shop = createClient({ baseUrl: mock.url, ...credentials, scope: "Shop" });
    const { data: cart } = await shop.shop.getCart.orThrow({ params: { path: { id: result.cartId } } });
    expect(cart.status).toBe("open");
    expect(cart.orderId).toBeNull();
    expect(cart.items.map((i) => [i.slotId, i.quantity])).toEqual([[result.slotId, 2]]);
  });
});

describe("node-checkout when seats go between discovery and adding", () => {
  let mock: MockServer;
  beforeAll(async () => {
    // Three seats per slot: a competitor holding them all makes the example's slot sold out.
    mock = await startMockServer({ port: 0, webhooks: false, seed: { shop: { slotCapacity: 3 } } });
  });
  afterAll(() => mock?.close());

  it("switches on the sold-out problem and buys in the next slot", async () => {
    const competitor = createClient({ baseUrl: mock.url, ...credentials, scope: "Shop" });
    let raced: { slotId: string } | undefined;
    const { opts } = options(mock, {
      // Between the example's availability check and its add, another buyer holds every seat of that slot.
      fetch: async (request) => {
        if (!raced && request.method === "POST" && /\/shop\/v1\/cart\/[^/]+\/items$/.test(request.url)) {
          const body = (await request.clone().json()) as { articleSlug: string; slotId: string };
          raced = { slotId: body.slotId };
          const { data: cart } = await competitor.shop.createCart.orThrow({});
          await competitor.shop.addCartItem.orThrow({
            params: { path: { id: cart.id } },
            body: { articleSlug: body.articleSlug, slotId: body.slotId, quantity: 3 },
          });
        }
        return fetch(request);
      },
    });
    const result = await main(opts);
    if (result.status !== "completed") throw new Error(`expected a completed purchase, got ${result.status}`);
    expect(raced).toBeDefined();
    expect(result.skipped).toEqual([
      { eventId: expect.any(String), slotId: raced?.slotId, reason: "sold-out" },
    ]);
    expect(result.slotId).not.toBe(raced?.slotId);
    expect(result.order.tickets).toHaveLength(2);
    expect(result.order.tickets.every((t) => t.slotId === result.slotId)).toBe(true);
    expect(result.scans.map((s) => s.result)).toEqual(["admitted", "denied"]);
  });
});
