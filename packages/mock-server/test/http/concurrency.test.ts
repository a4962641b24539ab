import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, bearer, type Cart, type EventDetail, startApi } from "../helpers.ts";

let api: Api;
beforeAll(async () => {
  // Enough seats for every cart to hold one; the holds then lapse and only 10 seats remain to fight over.
  api = await startApi({ seed: { shop: { slotCapacity: 210 } } });
});
afterAll(() => api.close());

it("200 concurrent checkouts for the last 10 seats: exactly 10 succeed, 190 get a 409, counts add up", async () => {
  const token = await api.token();
  const h = bearer(token);
  const list = await (await api.fetch("/shop/v1/discovery/events", { headers: h })).json();
  const event = (await (
    await api.fetch(`/shop/v1/discovery/events/${list.items[0].id}`, { headers: h })
  ).json()) as EventDetail;
  const slotId = event.slots[0]?.id ?? "";
  const articleId = event.pricingAssortments[0]?.articles[0]?.id ?? "";

  const carts = await Promise.all(
    Array.from({ length: 200 }, async (_, i) => {
      const cart = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
      const add = await api.fetch(`/shop/v1/cart/${cart.id}/items`, {
        method: "POST",
        headers: h,
        json: { articleId, slotId, quantity: 1 },
      });
      expect(add.status).toBe(201);
      await api.fetch(`/shop/v1/cart/${cart.id}/customer`, {
        method: "PUT",
        headers: h,
        json: { firstName: "Buyer", lastName: String(i), email: `buyer${i}@example.ch` },
      });
      await api.fetch(`/shop/v1/cart/${cart.id}/payment-provider`, {
        method: "PUT",
        headers: h,
        json: { paymentProviderId: "card" },
      });
      return cart.id;
    }),
  );
  // Let every hold lapse, then sell 200 of the 210 seats elsewhere so exactly 10 are left.
  await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 601 } });
  for (let i = 0; i < 25; i++) {
    const filler = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h })).json()) as Cart;
    const r = await api.fetch(`/shop/v1/cart/${filler.id}/items`, {
      method: "POST",
      headers: h,
      json: { articleId, slotId, quantity: 8 },
    });
    expect(r.status, await r.clone().text()).toBe(201);
  }
  const before = (await (
    await api.fetch(`/shop/v1/discovery/events/${event.id}`, { headers: h })
  ).json()) as EventDetail;
  expect(before.slots[0]?.available).toBe(10);

  const responses = await Promise.all(
    carts.map((id) =>
      api.fetch(`/shop/v1/cart/${id}/checkout`, {
        method: "POST",
        headers: h,
        json: { paymentMethod: { cardNumber: "4242424242424242" } },
      }),
    ),
  );
  const statuses = responses.map((r) => r.status);
  const bodies = await Promise.all(responses.map((r) => r.json()));
  expect(statuses.filter((s) => s === 200)).toHaveLength(10);
  expect(statuses.filter((s) => s === 409)).toHaveLength(190);
  for (const [i, body] of bodies.entries()) {
    if (statuses[i] === 409) {
      expect(body.type).toBe("https://docs.entrada.dev/problems/hold-expired");
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
  // Sold = the 10 winners; the other 200 seats are held by the filler carts; nothing is double-counted.
  expect(slot.sold).toBe(10);
  expect(slot.sold + slot.held).toBe(slot.capacity);
  const completed = Object.values(snapshot.world.shop.carts as Record<string, { status: string }>).filter(
    (c) => c.status === "completed",
  );
  expect(completed).toHaveLength(10);
  expect(Object.keys(snapshot.world.shop.orders)).toHaveLength(10);
});
