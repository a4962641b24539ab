import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, bearer, type Cart, type EventDetail, readyCart, startApi } from "../helpers.ts";

let api: Api;
beforeAll(async () => {
  // Ten seats for 200 buyers: open carts hold their seats until their hold lapses, so the race is for the seats.
  api = await startApi({ seed: { shop: { slotCapacity: 10 } } });
});
afterAll(() => api.close());

it("200 concurrent carts for the last 10 seats: exactly 10 get them, 10 pay once under 200 checkouts, counts add up", async () => {
  const token = await api.token();
  const h = bearer(token);
  const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
  const event = (await (
    await api.fetch(`/shop/v1/discovery/events/${list.items[0].id}`, { headers: h })
  ).json()) as EventDetail;
  const slotId = event.slots[0]?.id ?? "";
  const articleId = event.pricingAssortments[0]?.articles[0]?.id ?? "";

  const added = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const cart = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
      const add = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
        method: "POST",
        headers: h,
        json: { articleId, slotId, quantity: 1 },
      });
      return { id: cart.id, i, status: add.status, body: await add.json() };
    }),
  );
  const holders = added.filter((a) => a.status === 201);
  expect(holders).toHaveLength(10);
  for (const loser of added.filter((a) => a.status !== 201)) {
    expect(loser.status).toBe(409);
    expect(loser.body.type).toBe("https://docs.entrada.dev/problems/sold-out");
  }
  for (const { id, i } of holders) {
    await api.fetch(`/shop/v1/cart/${id}/customer`, {
      method: "PUT",
      headers: h,
      json: { firstName: "Buyer", lastName: String(i), email: `buyer${i}@example.ch` },
    });
    await api.fetch(`/shop/v1/cart/${id}/payment-provider`, {
      method: "PUT",
      headers: h,
      json: { paymentProviderId: "card" },
    });
  }

  // 20 checkouts per cart at once (no idempotency key): each cart is paid exactly once, the rest find it locked
  // or paid.
  const responses = await Promise.all(
    holders.flatMap(({ id }) =>
      Array.from({ length: 20 }, () =>
        api.fetch(`/shop/v1/cart/${id}/checkout`, {
          method: "POST",
          headers: h,
          json: { paymentMethod: { cardNumber: "4242424242424242" } },
        }),
      ),
    ),
  );
  const statuses = responses.map((r) => r.status);
  const bodies = await Promise.all(responses.map((r) => r.json()));
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 409)).toHaveLength(190);
  for (const [i, body] of bodies.entries()) {
    if (statuses[i] === 409) {
      expect([
        "https://docs.entrada.dev/problems/cart-locked",
        "https://docs.entrada.dev/problems/conflict",
      ]).toContain(body.type);
      expect(responses[i]?.headers.get("content-type")).toBe("application/problem+json");
    }
  }
  const tickets = bodies.filter((b) => b.status === "completed").flatMap((b) => b.order.tickets);
  expect(new Set(tickets.map((t: { id: string }) => t.id)).size).toBe(10);

  const after = (await (
    await api.fetch(`/shop/v1/discovery/events/${event.id}`, { headers: h })
  ).json()) as EventDetail;
  expect(after.slots[0]?.available).toBe(0);
  const snapshot = await (await api.fetch("/__mock/snapshot")).json();
  const slot = snapshot.world.shop.slots[slotId];
  expect(slot.sold).toBe(10);
  expect(slot.held).toBe(0);
  const completed = Object.values(snapshot.world.shop.carts as Record<string, { status: string }>).filter(
    (c) => c.status === "completed",
  );
  expect(completed).toHaveLength(10);
  expect(Object.keys(snapshot.world.shop.orders)).toHaveLength(10);
});

it("200 concurrent checkouts of carts whose holds lapsed: all 409 hold-expired, no seat taken", async () => {
  await api.fetch("/__mock/reset", { method: "POST", json: { seed: { shop: { slotCapacity: 400 } } } });
  const token = await api.token();
  const h = bearer(token);
  const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
  const eventId = list.items[0].id;
  const ids = await Promise.all(
    Array.from({ length: 200 }, async () => (await readyCart(api, token)).cart.id),
  );
  await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 601 } });
  const fresh = bearer(await api.token());
  const responses = await Promise.all(
    ids.map((id) =>
      api.fetch(`/shop/v1/cart/${id}/checkout`, {
        method: "POST",
        headers: fresh,
        json: { paymentMethod: { cardNumber: "4242424242424242" } },
      }),
    ),
  );
  for (const response of responses) {
    expect(response.status).toBe(409);
    expect((await response.json()).type).toBe("https://docs.entrada.dev/problems/hold-expired");
  }
  const event = (await (
    await api.fetch(`/shop/v1/discovery/events/${eventId}`, { headers: fresh })
  ).json()) as EventDetail;
  expect(event.slots[0]?.available).toBe(400);
});
