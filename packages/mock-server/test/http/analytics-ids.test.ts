/**
 * The visitor's GA4 ids handed over with the checkout (`CheckoutRequest.analytics`): validated against the
 * contract, kept with the order the checkout pays, echoed in `Order.analytics` and the `cart.completed` webhook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  bearer,
  bodyOf,
  emittedEvents,
  expectEventsConform,
  paidOrder,
  pendingPayment,
  problemOf,
  readyCart,
  startApi,
} from "../helpers.ts";

const SESSION = "analytics-ids";
const IDS = { ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" };
const CARD = { cardNumber: "4242424242424242" };

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ session: SESSION });
  token = await api.token();
});
afterAll(() => api.close());

function checkout(cartId: string, json: unknown, headers: Record<string, string> = {}) {
  return api.fetch(`/shop/v1/cart/${cartId}/checkout`, {
    method: "POST",
    headers: bearer(token, headers),
    json,
  });
}

/** The `cart.completed` payload the mock emitted for an order. */
async function completedFor(orderId: string) {
  const events = await emittedEvents(api, "cart.completed");
  const found = events.filter((e) => e.data.order.id === orderId);
  const [event] = found;
  if (!event || found.length !== 1)
    throw new Error(`expected one cart.completed for ${orderId}, got ${found.length}`);
  return event.data.order;
}

async function getOrder(orderId: string) {
  const r = await api.fetch(`/shop/v1/orders/${orderId}`, { headers: bearer(token) });
  expect(r.status).toBe(200);
  return bodyOf(r, "getOrder");
}

describe("checkout analytics ids", () => {
  it("keeps the ids with the order and echoes them in the order and in cart.completed", async () => {
    const { cart } = await readyCart(api, token);
    const r = await checkout(cart.id, { paymentMethod: CARD, analytics: IDS });
    expect(r.status).toBe(200);
    const order = await paidOrder(r);
    expect(order.analytics).toEqual(IDS);
    expect((await getOrder(order.id)).analytics).toEqual(IDS);
    expect((await completedFor(order.id)).analytics).toEqual(IDS);
    // Every emitted payload, this one included, still conforms to the contract's webhook schemas.
    expect(await expectEventsConform(api)).toBeGreaterThan(0);
  });

  it("accepts a client id alone; without analytics the order and the webhook carry none", async () => {
    const alone = (await readyCart(api, token)).cart;
    const r1 = await checkout(alone.id, { paymentMethod: CARD, analytics: { ga4ClientId: "42.1700000000" } });
    const o1 = await paidOrder(r1);
    expect((await completedFor(o1.id)).analytics).toEqual({ ga4ClientId: "42.1700000000" });

    const none = (await readyCart(api, token)).cart;
    const r2 = await checkout(none.id, { paymentMethod: CARD });
    const o2 = await paidOrder(r2);
    expect(o2).not.toHaveProperty("analytics");
    expect(await getOrder(o2.id)).not.toHaveProperty("analytics");
    expect(await completedFor(o2.id)).not.toHaveProperty("analytics");
  });

  it.each([
    [
      "a whole _ga cookie value",
      { ga4ClientId: "GA1.1.1187324961.1764583200" },
      "/body/analytics/ga4ClientId",
    ],
    ["one number", { ga4ClientId: "1187324961" }, "/body/analytics/ga4ClientId"],
    ["an overlong id", { ga4ClientId: `${"1".repeat(21)}.1764583200` }, "/body/analytics/ga4ClientId"],
    ["a session id with letters", { ...IDS, ga4SessionId: "s1764582815" }, "/body/analytics/ga4SessionId"],
    ["a session id alone", { ga4SessionId: "1764582815" }, "/body/analytics/ga4ClientId"],
    ["an unknown member", { ...IDS, fbp: "fb.1.1764583200.42" }, "/body/analytics/fbp"],
  ])(
    "refuses %s with a 400 problem pointing at the field, changing nothing",
    async (_, analytics, pointer) => {
      const { cart } = await readyCart(api, token);
      const r = await checkout(cart.id, { paymentMethod: CARD, analytics }, { "accept-language": "en-GB" });
      expect(r.status).toBe(400);
      const problem = await problemOf(r);
      expect(problem.type).toMatch(/\/validation-error$/);
      expect(problem.errors?.map((e) => e.pointer)).toContain(pointer);
      const after = await bodyOf(
        await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) }),
        "getCart",
      );
      expect(after.status).toBe("open");
      expect(after.orderId).toBeNull();
    },
  );

  it("the checkout that pays decides: a retry after a decline without ids leaves the order without", async () => {
    const { cart } = await readyCart(api, token);
    const declined = await checkout(cart.id, {
      paymentMethod: { cardNumber: "4000000000000002" },
      analytics: IDS,
    });
    expect(declined.status).toBe(402);
    const paid = await checkout(cart.id, { paymentMethod: CARD });
    expect(paid.status).toBe(200);
    const order = await paidOrder(paid);
    expect(order).not.toHaveProperty("analytics");
    expect(await completedFor(order.id)).not.toHaveProperty("analytics");
  });

  it("a redirect payment keeps the pending checkout's ids until the buyer returns paid", async () => {
    const { cart } = await readyCart(api, token, { provider: "redirect" });
    const r = await checkout(cart.id, { returnUrl: "https://tickets.example.ch/return", analytics: IDS });
    expect(r.status).toBe(202);
    const { redirectUrl, paymentId } = await pendingPayment(r);
    const back = await fetch(redirectUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "result=success",
      redirect: "manual",
    });
    expect(back.status).toBe(303);
    const payment = await bodyOf(
      await api.fetch(`/shop/v1/payments/${paymentId}`, { headers: bearer(token) }),
      "getPayment",
    );
    expect((await getOrder(payment.orderId ?? "")).analytics).toEqual(IDS);
    expect((await completedFor(payment.orderId ?? "")).analytics).toEqual(IDS);
  });
});
