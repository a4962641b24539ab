/**
 * Bounded by design: what a session (and the engine) retains has a cap as well as a lifetime, oldest first, and
 * what was dropped says so. Runs the whole engine in process with strict response validation.
 */

import { describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import type { MockCoreOptions } from "../../src/core/engine.ts";
import type { MockResponse } from "../../src/core/types.ts";
import { createEntradaMock } from "../../src/index.ts";
import { shopSlice } from "../../src/sections/shop/state.ts";
import { webhooksSlice } from "../../src/sections/webhooks/state.ts";

function setup(options: Partial<MockCoreOptions> = {}) {
  const core = createEntradaMock({
    validateResponses: "strict",
    rateLimit: false,
    schemaCompiler: ajvSchemaCompiler,
    ...options,
  });
  const send = (
    method: string,
    path: string,
    init: { headers?: Record<string, string>; json?: unknown; session?: string } = {},
  ): Promise<MockResponse> => {
    const headers: Record<string, string> = { "accept-language": "en-GB", ...init.headers };
    if (init.session) headers["x-mock-session"] = init.session;
    let body: Uint8Array | null = null;
    if (init.json !== undefined) {
      headers["content-type"] = "application/json";
      body = new TextEncoder().encode(JSON.stringify(init.json));
    }
    return core.handle({ method, url: `http://mock.test${path}`, headers, body });
  };
  const token = async (session?: string): Promise<Record<string, string>> => {
    const res = await core.handle({
      method: "POST",
      url: "http://mock.test/connect/token",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
        ...(session ? { "x-mock-session": session } : {}),
      },
      body: new TextEncoder().encode("grant_type=client_credentials"),
    });
    expect(res.status).toBe(200);
    return { authorization: `Bearer ${JSON.parse(String(res.body)).access_token}` };
  };
  return { core, send, token };
}

const json = (r: MockResponse) => JSON.parse(String(r.body));

describe("carts", () => {
  it("keeps at most shop.maxCarts, evicts the oldest first with its holds, and says so when one is read", async () => {
    const { core, send, token } = setup({ seed: { shop: { maxCarts: 3 } } });
    const auth = await token();
    const events = json(await send("GET", "/shop/v1/discovery/events", { headers: auth })).items;
    const event = json(await send("GET", `/shop/v1/discovery/events/${events[0].id}`, { headers: auth }));
    const slot = event.slots[0];
    const articleId = event.pricingAssortments[0].articles[0].id;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const cart = json(await send("POST", "/shop/v1/cart", { headers: auth }));
      const added = await send("POST", `/shop/v1/cart/${cart.id}/items`, {
        headers: auth,
        json: { articleId, slotId: slot.id, quantity: 1 },
      });
      expect(added.status).toBe(201);
      ids.push(cart.id);
    }
    expect(Object.keys(core.session().world.shop as object)).toContain("carts");
    const shop = shopSlice(core.session().world);
    expect([...shop.carts.keys()].sort()).toEqual(ids.slice(2).sort());
    expect(shop.cartCount).toBe(3);
    for (const id of ids.slice(0, 2)) {
      const gone = await send("GET", `/shop/v1/cart/${id}`, { headers: auth });
      expect(gone.status).toBe(404);
      expect(json(gone).detail).toBe(
        `The cart ${id} was evicted: the mock keeps at most 3 carts per session, oldest first (shop.maxCarts in the seed).`,
      );
    }
    // The evicted carts' seats went back: only the three kept carts hold one each.
    const after = json(await send("GET", `/shop/v1/discovery/events/${event.id}`, { headers: auth }));
    expect(after.slots[0].available).toBe(slot.available - 3);
    // A cart that never existed is still a plain 404.
    const never = await send("GET", "/shop/v1/cart/crt_01JD3Z8K4Q7N2M5P6R8S9T0V1W", { headers: auth });
    expect(json(never).detail).toBe("There is no cart crt_01JD3Z8K4Q7N2M5P6R8S9T0V1W.");
    expect(core.responseViolations).toEqual([]);
  });

  it("writes the kept carts and the evicted ids into a snapshot as plain objects and reads them back after a restore", async () => {
    const { send, token } = setup({ seed: { shop: { maxCarts: 2 } } });
    const auth = await token();
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push(json(await send("POST", "/shop/v1/cart", { headers: auth })).id);
    const snapshot = json(await send("GET", "/__mock/snapshot"));
    expect(Object.keys(snapshot.world.shop.carts)).toEqual(ids.slice(2));
    expect(snapshot.world.shop.carts[ids[3] as string]).toMatchObject({ id: ids[3], status: "open" });
    expect(snapshot.world.shop.evictedCarts).toEqual({ [ids[0] as string]: 1, [ids[1] as string]: 1 });
    // Another cart (evicting the third), then back to the snapshot: the third is kept again, the first two evicted.
    await send("POST", "/shop/v1/cart", { headers: auth });
    expect((await send("GET", `/shop/v1/cart/${ids[2]}`, { headers: auth })).status).toBe(404);
    expect((await send("POST", "/__mock/restore", { json: snapshot })).status).toBe(200);
    expect(json(await send("GET", "/__mock/snapshot")).world).toEqual(snapshot.world);
    expect((await send("GET", `/shop/v1/cart/${ids[2]}`, { headers: auth })).status).toBe(200);
    const gone = await send("GET", `/shop/v1/cart/${ids[0]}`, { headers: auth });
    expect(json(gone).detail).toMatch(/^The cart \S+ was evicted/);
    // The restored tables take the cap's churn on: one more cart evicts the oldest kept one.
    const next = json(await send("POST", "/shop/v1/cart", { headers: auth })).id;
    const after = json(await send("GET", "/__mock/snapshot")).world.shop;
    expect(Object.keys(after.carts)).toEqual([ids[3], next]);
    expect(Object.keys(after.evictedCarts)).toEqual([ids[1], ids[2]]);
  });
});

describe("orders, tickets and payments", () => {
  async function buyer(seedShop: Record<string, unknown>) {
    const env = setup({ seed: { shop: seedShop } });
    const auth = await env.token();
    const events = json(await env.send("GET", "/shop/v1/discovery/events", { headers: auth })).items;
    const event = json(await env.send("GET", `/shop/v1/discovery/events/${events[0].id}`, { headers: auth }));
    const ready = async (quantity: number, provider = "card") => {
      const cart = json(await env.send("POST", "/shop/v1/cart", { headers: auth }));
      const item = {
        articleId: event.pricingAssortments[0].articles[0].id,
        slotId: event.slots[0].id,
        quantity,
      };
      expect(
        (await env.send("POST", `/shop/v1/cart/${cart.id}/items`, { headers: auth, json: item })).status,
      ).toBe(201);
      const customer = { firstName: "Anna", lastName: "Meier", email: "anna.meier@example.ch" };
      await env.send("PUT", `/shop/v1/cart/${cart.id}/customer`, { headers: auth, json: customer });
      await env.send("PUT", `/shop/v1/cart/${cart.id}/payment-provider`, {
        headers: auth,
        json: { paymentProviderId: provider },
      });
      return cart.id as string;
    };
    const checkout = async (quantity = 1) => {
      const cartId = await ready(quantity);
      const res = await env.send("POST", `/shop/v1/cart/${cartId}/checkout`, {
        headers: auth,
        json: { paymentMethod: { cardNumber: "4242424242424242" } },
      });
      expect(res.status).toBe(200);
      const order = json(res).order;
      return {
        orderId: order.id as string,
        ticketIds: order.tickets.map((t: { id: string }) => t.id) as string[],
      };
    };
    const shop = () => shopSlice(env.core.session().world);
    return { ...env, auth, ready, checkout, shop };
  }

  it("keeps at most shop.maxOrders orders: the oldest go with their tickets and payment, and reads say so", async () => {
    const { send, auth, checkout, shop, core } = await buyer({ maxOrders: 2 });
    const bought = [await checkout(), await checkout(), await checkout(), await checkout()];
    expect(Object.keys(shop().orders).sort()).toEqual(
      bought
        .slice(2)
        .map((b) => b.orderId)
        .sort(),
    );
    expect(Object.keys(shop().tickets).sort()).toEqual(
      bought
        .slice(2)
        .flatMap((b) => b.ticketIds)
        .sort(),
    );
    expect(
      Object.values(shop().payments)
        .map((p) => p.orderId)
        .sort(),
    ).toEqual(
      bought
        .slice(2)
        .map((b) => b.orderId)
        .sort(),
    );
    const caps = "2 orders, 50000 tickets, 20000 payments";
    for (const { orderId, ticketIds } of bought.slice(0, 2)) {
      for (const path of [`/shop/v1/orders/${orderId}`, `/shop/v1/orders/${orderId}/tickets`]) {
        const gone = await send("GET", path, { headers: auth });
        expect(gone.status).toBe(404);
        expect(json(gone).detail).toBe(
          `The order ${orderId} was evicted: the mock keeps at most ${caps} per session, oldest first (shop.maxOrders, shop.maxTickets, shop.maxPayments in the seed).`,
        );
      }
      const ticket = await send("GET", `/assets/v1/tickets/${ticketIds[0]}.pdf`, { headers: auth });
      expect(ticket.status).toBe(404);
      expect(json(ticket).detail).toMatch(new RegExp(`^The ticket ${ticketIds[0]} was evicted: .*${caps}`));
    }
    // The kept ones still read; an order that never existed is a plain 404.
    expect((await send("GET", `/shop/v1/orders/${bought[3]?.orderId}`, { headers: auth })).status).toBe(200);
    const never = await send("GET", "/shop/v1/orders/ord_01JD3Z8K4Q7N2M5P6R8S9T0V1W", { headers: auth });
    expect(json(never).detail).toBe("There is no order ord_01JD3Z8K4Q7N2M5P6R8S9T0V1W.");
    expect(core.responseViolations).toEqual([]);
  });

  it("keeps at most shop.maxTickets tickets by dropping whole orders, oldest first", async () => {
    const { checkout, shop } = await buyer({ maxTickets: 5 });
    const a = await checkout(2);
    const b = await checkout(2);
    const c = await checkout(2);
    expect(Object.keys(shop().orders).sort()).toEqual([b.orderId, c.orderId].sort());
    expect(Object.keys(shop().tickets)).toHaveLength(4);
    expect(shop().tickets[a.ticketIds[0] as string]).toBeUndefined();
  });

  it("keeps at most shop.maxPayments payments, passing over one whose cart waits on it", async () => {
    const { send, auth, ready, checkout, shop } = await buyer({ maxPayments: 2 });
    // A pending redirect payment locks its cart: the cap passes over it.
    const locked = await ready(1, "redirect");
    const pending = json(
      await send("POST", `/shop/v1/cart/${locked}/checkout`, {
        headers: auth,
        json: { returnUrl: "https://shop.example/return" },
      }),
    );
    expect(pending.status).toBe("pending");
    const first = await checkout();
    const second = await checkout();
    expect(Object.keys(shop().payments)).toHaveLength(2);
    expect(shop().payments[pending.paymentId]).toBeDefined();
    expect(shop().orders[first.orderId]).toBeUndefined();
    expect(shop().orders[second.orderId]).toBeDefined();
    const gone = await send("GET", `/shop/v1/orders/${first.orderId}`, { headers: auth });
    expect(json(gone).detail).toMatch(
      /^The order .* was evicted: the mock keeps at most .*2 payments per session/,
    );
  });

  it("drops orders and settled payments shop.orderRetentionSeconds after they were made (mock clock)", async () => {
    const { send, auth, checkout, shop } = await buyer({ orderRetentionSeconds: 1800 });
    const old = await checkout();
    const oldPayment = Object.keys(shop().payments)[0] as string;
    await send("POST", "/__mock/clock", { json: { advanceSeconds: 1801 } });
    const fresh = await checkout();
    expect(Object.keys(shop().orders)).toEqual([fresh.orderId]);
    expect(shop().tickets[old.ticketIds[0] as string]).toBeUndefined();
    const gone = await send("GET", `/shop/v1/orders/${old.orderId}`, { headers: auth });
    expect(gone.status).toBe(404);
    expect(json(gone).detail).toBe(
      `The order ${old.orderId} was evicted: the mock keeps orders and payments for 0.02 days (shop.orderRetentionSeconds in the seed).`,
    );
    const payment = await send("GET", `/shop/v1/payments/${oldPayment}`, { headers: auth });
    expect(payment.status).toBe(404);
    expect(json(payment).detail).toMatch(new RegExp(`^The payment ${oldPayment} was evicted: `));
  });

  it("drops a cart's order, tickets and payment with the cart (shop.maxCarts) and counts them as retained", async () => {
    const { send, auth, checkout, shop, core } = await buyer({ maxCarts: 2 });
    const first = await checkout(2);
    const before = core.retainedRecords;
    await checkout();
    await checkout();
    expect(shop().orders[first.orderId]).toBeUndefined();
    expect(Object.keys(shop().orders)).toHaveLength(2);
    expect(Object.keys(shop().payments)).toHaveLength(2);
    const gone = await send("GET", `/shop/v1/orders/${first.orderId}`, { headers: auth });
    expect(json(gone).detail).toBe(
      `The order ${first.orderId} was evicted with its cart (shop.maxCarts, shop.cartRetentionSeconds in the seed).`,
    );
    // carts + orders + tickets + payments, in step with what is kept.
    expect(core.retainedRecords).toBeGreaterThan(before);
  });
});

describe("keys, tokens and sessions", () => {
  it("keeps at most maxIdempotencyKeys keys: the oldest is forgotten first", async () => {
    const { core, send, token } = setup({ maxIdempotencyKeys: 2 });
    const auth = await token();
    for (const key of ["k1", "k2", "k3"])
      expect(
        (await send("POST", "/shop/v1/cart", { headers: { ...auth, "idempotency-key": key } })).status,
      ).toBe(201);
    expect(core.session().idempotency.size).toBe(2);
    // k3 is kept: a replay. k1 was forgotten: a new cart.
    const replay = await send("POST", "/shop/v1/cart", { headers: { ...auth, "idempotency-key": "k3" } });
    expect(replay.headers["idempotent-replayed"]).toBe("true");
    const fresh = await send("POST", "/shop/v1/cart", { headers: { ...auth, "idempotency-key": "k1" } });
    expect(fresh.headers["idempotent-replayed"]).toBeUndefined();
  });

  it("keeps at most maxTokens tokens: the oldest issued stops working (401 invalid_token)", async () => {
    const { core, send, token } = setup({ maxTokens: 2 });
    const first = await token();
    const second = await token();
    const third = await token();
    expect(core.session().tokens.size).toBe(2);
    const old = await send("GET", "/shop/v1/discovery/events", { headers: first });
    expect(old.status).toBe(401);
    expect(old.headers["www-authenticate"]).toContain('error="invalid_token"');
    for (const auth of [second, third])
      expect((await send("GET", "/shop/v1/discovery/events", { headers: auth })).status).toBe(200);
  });

  it("drops the least recently used sessions (never default) once all of them retain more than maxRetainedRecords", async () => {
    const { core, send, token } = setup({ maxRetainedRecords: 12 });
    const auth = await token();
    for (const session of ["a", "b", "c"]) {
      const own = await token(session);
      for (let i = 0; i < 4; i++) await send("POST", "/shop/v1/cart", { headers: own, session });
    }
    for (let i = 0; i < 3; i++) await send("POST", "/shop/v1/cart", { headers: auth });
    const kept = core.listSessions().map((s) => s.id);
    expect(kept).toContain("default");
    expect(kept).not.toContain("a");
    expect(core.retainedRecords).toBeLessThanOrEqual(12);
  });
});

describe("webhooks", () => {
  const subscribe = (send: ReturnType<typeof setup>["send"], auth: Record<string, string>, n: number) =>
    send("POST", "/webhooks/v1/subscriptions", {
      headers: auth,
      json: { url: `http://127.0.0.1:9/hook-${n}`, eventTypes: ["cart.created"] },
    });

  it("caps subscriptions (409 beyond), pending deliveries per subscription and the delivery log", async () => {
    const { core, send, token } = setup({
      seed: { webhooks: { limits: { maxSubscriptions: 2, maxPendingPerSubscription: 3, maxDeliveries: 4 } } },
    });
    const auth = await token();
    expect((await subscribe(send, auth, 1)).status).toBe(201);
    expect((await subscribe(send, auth, 2)).status).toBe(201);
    const third = await subscribe(send, auth, 3);
    expect(third.status).toBe(409);
    expect(json(third)).toMatchObject({
      limit: 2,
      detail: expect.stringContaining("At most 2 subscriptions"),
    });
    for (let i = 0; i < 5; i++) await send("POST", "/shop/v1/cart", { headers: auth });
    const state = webhooksSlice(core.session().world);
    // 10 deliveries were created; the log keeps the newest (at most 4 + its batch slack of 16).
    expect(state.deliveryOrder.length).toBeLessThanOrEqual(4 + 16);
    const bySubscription = new Map<string, number>();
    for (const d of Object.values(state.deliveries))
      if (d.status === "pending")
        bySubscription.set(d.subscriptionId, (bySubscription.get(d.subscriptionId) ?? 0) + 1);
    expect([...bySubscription.values()]).toEqual([3, 3]);
    expect(core.responseViolations).toEqual([]);
  });

  it("survives a 10k-subscription burst: 1 000 kept, the rest a 409, one event fans out within the caps, no 5xx", async () => {
    const { core, send, token } = setup();
    const auth = await token();
    const statuses = new Map<number, number>();
    for (let i = 0; i < 10_000; i++) {
      const status = (await subscribe(send, auth, i)).status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 201: 1000, 409: 9000 });
    expect((await send("POST", "/shop/v1/cart", { headers: auth })).status).toBe(201);
    const state = webhooksSlice(core.session().world);
    expect(state.deliveryOrder.length).toBe(1000);
    expect(core.retainedRecords).toBeLessThan(100_000);
  });
});
