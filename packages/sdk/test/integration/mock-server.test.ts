/**
 * End to end against the real mock server (`@entrada/mock-server/msw`): contract validation, OAuth, idempotency,
 * faults and a controllable clock, served through msw's `setupServer` with the client's default global fetch.
 */
import { createMock } from "@entrada/mock-server/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { biFeed, odata } from "../../src/bi/index.ts";
import { createClient, type EntradaClientOptions, EntradaProblemError, paginate } from "../../src/index.ts";

const BASE = "https://api.mock.entrada.test";
const mock = createMock({ baseUrl: BASE });
const DEMO_SCOPE = { scope: ["Shop", "TERP"] } as const;
const server = setupServer(...mock.handlers);
const DEMO = { baseUrl: BASE, clientId: "entrada-demo", clientSecret: "demo-secret" } as const;

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  mock.reset();
  server.resetHandlers();
});
afterAll(() => server.close());

/** Calls a `/__mock` control (no auth). */
async function control(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${BASE}/__mock${path}`, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** A client whose token requests are counted. */
function countingClient(options: Partial<EntradaClientOptions> = {}) {
  const counter = { token: 0, api: 0 };
  const client = createClient({
    ...DEMO,
    ...options,
    fetch: (request: Request) => {
      if (new URL(request.url).pathname === "/connect/token") counter.token++;
      else counter.api++;
      return fetch(request);
    },
  } as EntradaClientOptions);
  return { client, counter };
}

async function firstBookable(client: ReturnType<typeof createClient>) {
  for await (const summary of paginate(client.shop.listEvents, { params: { query: { limit: 5 } } })) {
    if (!summary.available) continue;
    const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId: summary.id } } });
    const slot = event.slots.find((s) => s.available > 0);
    const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
    if (slot && article) return { event, slot, article };
  }
  throw new Error("the seed has no bookable event");
}

describe("against the mock server", () => {
  it("calls the token operation with HTTP Basic (the client's credentials), not a bearer token", async () => {
    const client = createClient({ ...DEMO, ...DEMO_SCOPE });
    const { data, error } = await client.token.createToken({
      body: { grant_type: "client_credentials", scope: "Shop" },
    });
    expect(error).toBeUndefined();
    expect(data).toMatchObject({ access_token: expect.any(String), token_type: "Bearer" });
    const wrong = createClient({ ...DEMO, clientSecret: "wrong" });
    const refused = await wrong.token.createToken({
      body: { grant_type: "client_credentials", scope: "Shop" },
    });
    expect(refused.error).toMatchObject({ kind: "oauth", error: "invalid_client", method: "POST" });
    expect(refused.error?.message).toMatch(/^POST \/connect\/token → 401 invalid_client/);
  });

  it("runs the whole purchase flow with typed results", async () => {
    const client = createClient({ ...DEMO, ...DEMO_SCOPE, locale: "fr-CH" });
    const { data: config, meta } = await client.shop.getSystemConfiguration.orThrow();
    expect(meta.logId).toMatch(/^log_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(meta.contentLanguage).toBe("fr-CH");
    const card = config.paymentProviders.find((p) => p.kind === "card");
    expect(card).toBeDefined();

    const { event, slot, article } = await firstBookable(client);
    const { data: cart } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
    expect(cart.id).toMatch(/^crt_/);
    const withItem = await client.shop.addCartItem.orThrow({
      params: { path: { id: cart.id } },
      body: { articleId: article.id, slotId: slot.id, quantity: 1 },
    });
    expect(withItem.data.items).toHaveLength(1);
    expect(withItem.data.items[0]?.eventId).toBe(event.id);
    await client.shop.setCartCustomer.orThrow({
      params: { path: { id: cart.id } },
      body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    });
    await client.shop.setCartPaymentProvider.orThrow({
      params: { path: { id: cart.id } },
      body: { paymentProviderId: card?.id ?? "" },
    });
    const { data: result } = await client.shop.checkoutCart.orThrow({
      params: { path: { id: cart.id } },
      body: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(result.status).toBe("completed");
    if (result.status !== "completed") return;
    expect(result.order.tickets.length).toBe(1);
    expect(result.order.tickets[0]?.quicode).toMatch(/^Q1\./);

    const { data: tickets } = await client.shop.listOrderTickets.orThrow({
      params: { path: { orderId: result.order.id } },
    });
    expect(tickets.items.map((t) => t.id)).toEqual(result.order.tickets.map((t) => t.id));
    const ticket = tickets.items[0];
    if (!ticket) return;

    // The entrance section (scope TERP) admits the ticket once, then denies it.
    const gates = await paginate(client.entrance.listGates).all();
    const gate = gates.find(
      (g) => g.eventIds.includes(event.id) && g.status === "open" && g.direction !== "exit",
    );
    if (!gate) throw new Error(`no open entry gate for ${event.id}`);
    const gateId = gate.id;
    // Doors open: move the mock's clock to the slot (days ahead, so the token expires and is renewed on the way).
    await control("POST", "/clock", { set: slot.startsAt });
    const scan = () =>
      client.entrance.scanQuicode.orThrow({
        params: { path: { gateId } },
        body: { quicode: ticket.quicode },
      });
    const firstScan = (await scan()).data;
    expect(firstScan, firstScan.reasonText).toMatchObject({ result: "admitted" });
    expect((await scan()).data.result).toBe("denied");
  });

  it("replays a write repeated with the same idempotency key (same cart, original log id)", async () => {
    const client = createClient(DEMO);
    const first = await client.shop.createCart.orThrow({ body: {}, idempotencyKey: "it-replay-1" });
    const second = await client.shop.createCart.orThrow({ body: {}, idempotencyKey: "it-replay-1" });
    expect(second.data.id).toBe(first.data.id);
    expect(first.meta.replayed).toBe(false);
    expect(second.meta.replayed).toBe(true);
    expect(second.meta.logId).toBe(first.meta.logId);

    const reused = await client.shop.createCart({ body: { currency: "EUR" }, idempotencyKey: "it-replay-1" });
    expect(reused.error).toBeInstanceOf(EntradaProblemError);
    expect(reused.error?.kind === "problem" && reused.error.slug).toBe("idempotency-key-reused");
  });

  it("retries a write through 503s with one key, creating exactly one cart", async () => {
    await control("POST", "/faults", {
      kind: "unavailable",
      operationId: "createCart",
      times: 2,
      retryAfterSeconds: 0,
    });
    const { client, counter } = countingClient({ retry: { baseDelayMs: 5 } });
    const { data, meta } = await client.shop.createCart.orThrow({ body: {} });
    expect(meta.attempts).toBe(3);
    expect(counter.api).toBe(3);
    const again = await client.shop.createCart.orThrow({
      body: {},
      idempotencyKey: meta.idempotencyKey as string,
    });
    expect(again.data.id).toBe(data.id);
    expect(again.meta.replayed).toBe(true);
  });

  it("retries dropped connections on reads", async () => {
    await control("POST", "/faults", { kind: "drop", operationId: "listVenues", times: 1 });
    const { client, counter } = countingClient({ retry: { baseDelayMs: 5 } });
    const { data, meta } = await client.shop.listVenues.orThrow();
    expect(data.items.length).toBeGreaterThan(0);
    expect(meta.attempts).toBe(2);
    expect(counter.api).toBe(2);
  });

  it("honours 429 Retry-After from the mock: the retry waits the server's second, not its own backoff", async () => {
    await control("POST", "/faults", {
      kind: "rate-limit",
      operationId: "listVenues",
      times: 1,
      retryAfterSeconds: 1,
    });
    // Fake clock for the client (msw answers in-process): the test moves time instead of waiting for it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
    try {
      const sent: number[] = [];
      const answered: number[] = [];
      // A 1 ms backoff: only the server's Retry-After can make the client wait a second.
      const client = createClient({
        ...DEMO,
        retry: { baseDelayMs: 1 },
        fetch: async (request: Request) => {
          const api = new URL(request.url).pathname !== "/connect/token";
          if (api) sent.push(Date.now());
          const response = await fetch(request);
          if (api) answered.push(Date.now());
          return response;
        },
      });
      const call = client.shop.listVenues.orThrow();
      await expect.poll(() => answered.length, { timeout: 5_000 }).toBe(1);
      for (let step = 0; step < 40 && sent.length < 2; step++) await vi.advanceTimersByTimeAsync(50);
      const { meta } = await call;
      expect(meta.attempts).toBe(2);
      expect(sent).toHaveLength(2);
      expect((sent[1] as number) - (answered[0] as number)).toBeGreaterThanOrEqual(1_000);
    } finally {
      vi.useRealTimers();
    }
  });

  it("gets a new token when the server rejects an expired one, and shares one token across calls", async () => {
    const { client, counter } = countingClient();
    await Promise.all(Array.from({ length: 25 }, () => client.shop.listVenues.orThrow()));
    expect(counter.token).toBe(1);
    // The mock's clock moves past the token's lifetime; the client's cache does not know it yet.
    await control("POST", "/clock", { advanceSeconds: 3_700 });
    const { meta } = await client.shop.listVenues.orThrow();
    expect(counter.token).toBe(2);
    expect(meta.attempts).toBe(2);
  });

  it("recovers from revoked tokens", async () => {
    const { client, counter } = countingClient();
    await client.shop.listVenues.orThrow();
    await control("POST", "/tokens/revoke");
    await client.shop.listVenues.orThrow();
    expect(counter.token).toBe(2);
  });

  it("keeps working across a secret rotation", async () => {
    // A client of its own, so the rotation does not leak into other tests.
    await control("PUT", "/clients/it-rotation", { secrets: ["initial-secret"], scopes: ["Shop"] });
    const { client, counter } = countingClient({ clientId: "it-rotation", clientSecret: "initial-secret" });
    await client.shop.listVenues.orThrow();
    const first = (await control("POST", "/clients/it-rotation/rotate")) as { secret: string };
    client.setCredentials({ clientId: "it-rotation", clientSecret: first.secret }, { dropCachedToken: true });
    await client.shop.listVenues.orThrow();
    // A second rotation revokes the original secret; the client already uses the first rotated one.
    await control("POST", "/clients/it-rotation/rotate");
    await control("POST", "/tokens/revoke");
    await client.shop.listVenues.orThrow();
    expect(counter.token).toBe(3);
  });

  it("reports wrong credentials as an OAuth error", async () => {
    const client = createClient({ ...DEMO, clientSecret: "wrong-secret" });
    const { error } = await client.shop.listVenues();
    expect(error?.kind).toBe("oauth");
    expect(error?.kind === "oauth" && error.error).toBe("invalid_client");
    expect(error?.status).toBe(401);
  });

  it("types validation problems with JSON pointers, localized", async () => {
    const client = createClient({ ...DEMO, locale: "en-GB" });
    const { data: cart } = await client.shop.createCart.orThrow({ body: {} });
    const { error } = await client.shop.addCartItem({
      params: { path: { id: cart.id } },
      body: { articleId: "art_x", slotId: "slt_x", quantity: 0 },
    });
    expect(error).toBeInstanceOf(EntradaProblemError);
    if (error?.kind !== "problem") return;
    expect(error.slug).toBe("validation-error");
    expect(error.status).toBe(400);
    expect(error.errors.map((e) => e.pointer)).toContain("/body/quantity");
    expect(error.logId).toMatch(/^log_/);
    expect(error.idempotencyKey).toBeTypeOf("string");
  });

  it("reports a missing scope as a forbidden problem", async () => {
    const client = createClient({
      baseUrl: BASE,
      clientId: "entrada-shop",
      clientSecret: "shop-secret",
      scope: "Shop",
    });
    const { error } = await client.entrance.listGates();
    expect(error?.kind === "problem" && error.slug).toBe("forbidden");
    expect(error?.status).toBe(403);
  });

  it("creates a session token server-side that a browser-style client can use", async () => {
    const server = createClient(DEMO);
    const { data: session } = await server.sessions.create.orThrow({
      allowedOrigins: ["https://shop.example"],
    });
    expect(session.sessionToken).toBeTypeOf("string");
    const browser = createClient({ baseUrl: BASE, sessionToken: session.sessionToken, locale: "it-CH" });
    const { data, meta } = await browser.shop.listEvents.orThrow({
      headers: { origin: "https://shop.example" },
    });
    expect(Array.isArray(data.items)).toBe(true);
    expect(meta.contentLanguage).toBe("it-CH");
  });

  it("lists the catalogue with slots and assortments in one request per page (include, comma-separated)", async () => {
    const { client, counter } = countingClient();
    const { data } = await client.shop.listEvents.orThrow({
      params: { query: { include: ["slots", "assortments"], limit: 3 } },
    });
    expect(counter.api).toBe(1);
    expect(data.items).toHaveLength(3);
    for (const item of data.items) {
      const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId: item.id } } });
      expect(item.slots).toEqual(event.slots);
      expect(item.pricingAssortments).toEqual(event.pricingAssortments);
    }
    // An unknown value is the typed validation problem naming the parameter.
    const bad = await client.shop.listEvents({
      params: { query: { include: ["prices" as "slots"] } },
    });
    expect(bad.error).toBeInstanceOf(EntradaProblemError);
    expect((bad.error as EntradaProblemError).problem).toMatchObject({
      errors: [{ pointer: "/query/include/0" }],
    });
  });

  it("reads the BI feed with the client's token: typed sections and the OData helper", async () => {
    const { client, counter } = countingClient();
    const metadata = await client.bi.getBiMetadata.orThrow();
    expect(typeof metadata.data).toBe("object");
    const { data: orders } = await client.bi.listBiOrders.orThrow({ params: { query: { $top: 2 } } });
    expect(orders.value.length).toBeLessThanOrEqual(2);
    const feed = biFeed({ baseUrl: BASE, getToken: client.getAccessToken });
    let rows = 0;
    for await (const row of feed.rows(odata("Orders").top(3))) {
      expect(row).toBeTypeOf("object");
      rows++;
    }
    expect(rows).toBeGreaterThan(0);
    expect(counter.token).toBe(1);
  });

  it("reaches every implemented section with typed results", async () => {
    const client = createClient({ ...DEMO, ...DEMO_SCOPE, locale: "en-GB" });
    const surveys = await paginate(client.survey.listSurveys).all({ max: 5 });
    expect(surveys.length).toBeGreaterThan(0);
    const first = surveys[0];
    if (first) {
      const { data: survey } = await client.survey.getSurvey.orThrow({
        params: { path: { surveyId: first.id } },
      });
      expect(survey.id).toBe(first.id);
    }
    const imports = await client.externalEntrance.listExternalImports.orThrow();
    expect(Array.isArray(imports.data.items)).toBe(true);
    const gates = await client.entrance.listGates.orThrow();
    expect(gates.data.items.length).toBeGreaterThan(0);
    const subscriptions = await client.webhooks.listWebhookSubscriptions.orThrow();
    expect(Array.isArray(subscriptions.data.items)).toBe(true);
    const tickets = await client.bi.listBiTickets.orThrow({ params: { query: { $top: 1 } } });
    expect(tickets.data.value.length).toBeLessThanOrEqual(1);
    expect(tickets.meta.logId).toMatch(/^log_/);
  });
});
