import { afterAll, beforeAll, expect, it } from "vitest";
import { IdempotencyStore } from "../../src/core/idempotency-store.ts";
import { type Api, bearer, bodyOf, mockSnapshot, paidOrder, readyCart, startApi } from "../helpers.ts";

const session = "retention";
let api: Api;
let token: string;

beforeAll(async () => {
  api = await startApi({ session });
  const seeded = await api.fetch("/__mock/seed", {
    method: "POST",
    json: {
      shop: { holdDurationSeconds: 30, cartTtlSeconds: 60, cartRetentionSeconds: 60, slotCapacity: 50 },
    },
  });
  expect(seeded.status).toBe(200);
  token = await api.token();
});
afterAll(() => api.close());

const advance = async (seconds: number) =>
  expect(
    (await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: seconds } })).status,
  ).toBe(200);
const cartStatus = async (id: string) => {
  const response = await api.fetch(`/shop/v1/cart/${id}`, { headers: bearer(token) });
  return response.status === 200 ? (await bodyOf(response, "getCart")).status : response.status;
};
/** Any shop write runs the sweep. */
const write = async () =>
  expect((await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token) })).status).toBe(201);
const available = async (eventId: string) =>
  (
    await bodyOf(
      await api.fetch(`/shop/v1/discovery/events/${eventId}`, { headers: bearer(token) }),
      "getEvent",
    )
  ).slots[0]?.available;

it("drops abandoned carts and their holds after TTL + retention on the mock clock; keeps paid and locked ones", async () => {
  const { cart: abandoned, event } = await readyCart(api, token, { quantity: 3 });
  const { cart: paid } = await readyCart(api, token, { quantity: 2 });
  const checkout = await api.fetch(`/shop/v1/cart/${paid.id}/checkout`, {
    method: "POST",
    headers: bearer(token),
    json: { paymentMethod: { cardNumber: "4242424242424242" } },
  });
  expect(checkout.status).toBe(200);
  const order = await paidOrder(checkout);
  const { cart: locked } = await readyCart(api, token, { provider: "redirect" });
  expect(
    (
      await api.fetch(`/shop/v1/cart/${locked.id}/checkout`, {
        method: "POST",
        headers: bearer(token),
        json: { returnUrl: "https://shop.example.ch/return" },
      })
    ).status,
  ).toBe(202);
  expect(await available(event.id)).toBe(50 - 3 - 2 - 1);
  const snapshot = await (await api.fetch("/__mock/snapshot")).json();

  // Expired but still inside the retention window: readable as "expired".
  await advance(90);
  const touched = await readyCart(api, token);
  await write();
  expect(await cartStatus(abandoned.id)).toBe("expired");

  await advance(31); // 121 s after the abandoned cart's last change: TTL (60) + retention (60) passed.
  await write();
  expect(await cartStatus(abandoned.id)).toBe(404);
  expect(await cartStatus(paid.id)).toBe("completed");
  expect(await cartStatus(locked.id)).toBe("locked");
  // Changed 31 s ago: its hold (30 s) lapsed, so it reads as expired, but it is kept until TTL + retention.
  expect(await cartStatus(touched.cart.id)).toBe("expired");
  expect((await api.fetch(`/shop/v1/orders/${order.id}`, { headers: bearer(token) })).status).toBe(200);
  // Only the paid seats and the locked cart's hold count; the other holds lapsed or went with their cart.
  expect(await available(event.id)).toBe(50 - 2 - 1);

  // Snapshot/restore brings the dropped cart back with its clock; it is dropped again once due.
  const restored = await api.fetch("/__mock/restore", { method: "POST", json: snapshot });
  expect(restored.status).toBe(200);
  expect(await cartStatus(abandoned.id)).toBe("open");
  await advance(121);
  await write();
  expect(await cartStatus(abandoned.id)).toBe(404);
  expect(await cartStatus(paid.id)).toBe("completed");
});

it("drains a backlog a bounded number per request, so every abandoned cart goes after a few writes", async () => {
  await api.fetch("/__mock/reset", { method: "POST", json: {} });
  const ids: string[] = [];
  for (let i = 0; i < 150; i++) {
    const response = await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token) });
    ids.push((await bodyOf(response, "createCart")).id);
  }
  await advance(121);
  for (let i = 0; i < 3; i++) await write();
  const statuses = await Promise.all(ids.map(cartStatus));
  expect(statuses.filter((s) => s !== 404)).toEqual([]);
  const snapshot = await mockSnapshot(api);
  expect(Object.keys(snapshot.world.shop.carts)).toHaveLength(3);
});

it("idempotency keys are evicted once they expire, oldest first; a re-used expired key starts afresh", () => {
  const store = new IdempotencyStore(1000);
  const stored = { status: 201, headers: {}, body: "{}" };
  expect(store.begin("a", "1", 0).kind).toBe("new");
  store.complete("a", stored);
  expect(store.begin("b", "1", 500).kind).toBe("new");
  store.complete("b", stored);
  expect(store.begin("a", "1", 900).kind).toBe("replay");
  expect(store.size).toBe(2);
  // At 1200 "a" expired: evicted by the next begin, "b" kept.
  expect(store.begin("c", "1", 1200).kind).toBe("new");
  expect(store.size).toBe(2);
  expect(store.begin("b", "2", 1300).kind).toBe("reused");
  // "b" expires at 1500; taken again at 1600 it is new and moves to the back.
  expect(store.begin("b", "2", 1600).kind).toBe("new");
  store.complete("b", stored);
  store.evict(2300); // "c" (2200) expired, "b" (2600) not
  expect(store.size).toBe(1);
  store.evict(5000);
  expect(store.size).toBe(0);
});

it("a write without a key evicts expired keys too (engine)", async () => {
  const created = await api.fetch("/shop/v1/cart", {
    method: "POST",
    headers: bearer(token, { "idempotency-key": "retention-key-1" }),
  });
  expect(created.status).toBe(201);
  const store = api.mock.core.session(session).idempotency;
  expect(store.size).toBe(1);
  await advance(86_401);
  token = await api.token();
  await write();
  expect(store.size).toBe(0);
});
