/**
 * Voucher codes over real HTTP (response validation strict): the seeded kinds and their arithmetic, the refusals as
 * problems that leave the cart unchanged, idempotent repeats, limited uses under 200 concurrent carts, held uses
 * that come back on the mock clock, and the discount in the order, the payment, `cart.completed` and the BI feed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  bearer,
  type Cart,
  type EventDetail,
  emittedEvents,
  expectEventsConform,
  readyCart,
  startApi,
} from "../helpers.ts";

interface Money {
  amount: number;
  currency: string;
}
interface Discount {
  code: string;
  kind: string;
  name: string;
  amount: Money;
}
type PricedCart = Omit<Cart, "items"> & {
  items: Array<Cart["items"][number] & { unitPrice: Money }>;
  subtotal: Money;
  discounts: Discount[];
};

const CARD = { paymentMethod: { cardNumber: "4242424242424242" } };
const PROBLEM = "https://docs.entrada.dev/problems/";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ seed: { shop: { slotCapacity: 1000 } } });
  token = await api.token();
});
afterAll(() => api.close());

const h = () => bearer(token);
/** Back to the seed (clock included), with a token issued on the reset clock. */
async function reset(seed?: unknown) {
  await api.fetch("/__mock/reset", { method: "POST", json: seed === undefined ? {} : { seed } });
  token = await api.token();
}
/** Moves the mock clock on; the token is renewed (an hour's lifetime may have passed). */
async function advance(seconds: number) {
  await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: seconds } });
  token = await api.token();
}

/** A seed whose only voucher is `ONCE`, usable once, of the given kind. */
function withOneUseCode(kind: Record<string, unknown>) {
  const name = { "de-CH": "Einmal", "fr-CH": "Une fois", "it-CH": "Una volta", "en-GB": "Once" };
  return { shop: { slotCapacity: 1000, vouchers: [{ code: "ONCE", maxUses: 1, name, ...kind }] } };
}

function apply(cartId: string, code: string, headers: Record<string, string> = {}) {
  return api.fetch(`/shop/v1/cart/${cartId}/voucher`, {
    method: "PUT",
    headers: bearer(token, headers),
    json: { code },
  });
}
function remove(cartId: string) {
  return api.fetch(`/shop/v1/cart/${cartId}/voucher`, { method: "DELETE", headers: h() });
}
async function getCart(cartId: string): Promise<PricedCart> {
  return (await (await api.fetch(`/shop/v1/cart/${cartId}`, { headers: h() })).json()) as PricedCart;
}
function checkout(cartId: string) {
  return api.fetch(`/shop/v1/cart/${cartId}/checkout`, { method: "POST", headers: h(), json: CARD });
}

/** A cart with `quantity` of the first article, plus `student` tickets of the event with a student price. */
async function cartWith(quantity: number): Promise<{ cart: PricedCart; event: EventDetail }> {
  const { cart, event } = await readyCart(api, token, { quantity });
  return { cart: cart as PricedCart, event };
}

describe("the seeded kinds", () => {
  beforeAll(() => reset());

  it("percentage: 10 % of the lines, recomputed after item changes, removable", async () => {
    const { cart } = await cartWith(2);
    const unit = cart.items[0]?.unitPrice?.amount ?? 0;
    let r = await apply(cart.id, "winter10");
    expect(r.status).toBe(200);
    let body = (await r.json()) as PricedCart;
    expect(body.subtotal.amount).toBe(2 * unit);
    expect(body.discounts).toEqual([
      {
        code: "WINTER10",
        kind: "percentage",
        name: "10 % Rabatt",
        amount: { amount: Math.round(0.2 * unit), currency: "CHF" },
      },
    ]);
    expect(body.total.amount).toBe(2 * unit - Math.round(0.2 * unit));

    const itemId = body.items[0]?.id ?? "";
    r = await api.fetch(`/shop/v1/cart/${cart.id}/items/${itemId}`, {
      method: "PATCH",
      headers: h(),
      json: { quantity: 5 },
    });
    body = (await r.json()) as PricedCart;
    expect(body.discounts[0]?.amount.amount).toBe(Math.round(0.5 * unit));
    expect(body.total.amount).toBe(5 * unit - Math.round(0.5 * unit));

    r = await remove(cart.id);
    body = (await r.json()) as PricedCart;
    expect(body.discounts).toEqual([]);
    expect(body.total.amount).toBe(5 * unit);
    // Removing again is a no-op, not an error.
    expect((await remove(cart.id)).status).toBe(200);
  });

  it("fixed amount, free ticket (cheapest unit) and the localized name", async () => {
    const { cart } = await cartWith(3);
    const unit = cart.items[0]?.unitPrice?.amount ?? 0;
    let body = (await (await apply(cart.id, "FIVEOFF", { "accept-language": "en-GB" })).json()) as PricedCart;
    expect(body.discounts[0]).toMatchObject({
      kind: "fixed-amount",
      name: "5.00 off",
      amount: { amount: 500 },
    });
    expect(body.total.amount).toBe(3 * unit - 500);
    // Applying another code replaces the first.
    body = (await (await apply(cart.id, "FREETICKET", { "accept-language": "fr-CH" })).json()) as PricedCart;
    expect(body.discounts).toHaveLength(1);
    expect(body.discounts[0]).toMatchObject({
      code: "FREETICKET",
      kind: "free-ticket",
      name: "Un billet offert",
    });
    expect(body.total.amount).toBe(2 * unit);
  });
});

describe("refusals leave the cart unchanged", () => {
  beforeAll(() => reset());

  it.each([
    ["NOPE", 422, "voucher-unknown"],
    ["SUMMER25", 422, "voucher-expired"],
    ["STUDENT50", 422, "voucher-not-applicable"],
  ])("%s → %i %s", async (code, status, slug) => {
    const { cart } = await cartWith(1);
    await apply(cart.id, "WINTER10");
    const before = await getCart(cart.id);
    const r = await apply(cart.id, code, { "accept-language": "it-CH" });
    expect(r.status).toBe(status);
    expect(r.headers.get("content-type")).toBe("application/problem+json");
    const problem = await r.json();
    expect(problem).toMatchObject({ type: `${PROBLEM}${slug}`, status, code });
    expect(problem.detail).toContain(code);
    expect(await getCart(cart.id)).toEqual(before);
  });

  it.each([
    ["control characters", "WIN\u0007TER10"],
    ["a line break", "WINTER10\n"],
    ["10 KB", "A".repeat(10 * 1024)],
    ["empty", ""],
  ])("a malformed code (%s) is a 400 validation-error at /body/code", async (_, code) => {
    const { cart } = await cartWith(1);
    const before = await getCart(cart.id);
    const r = await apply(cart.id, code);
    expect(r.status).toBe(400);
    const problem = await r.json();
    expect(problem.type).toBe(`${PROBLEM}validation-error`);
    expect(new Set(problem.errors.map((e: { pointer: string }) => e.pointer))).toEqual(
      new Set(["/body/code"]),
    );
    expect(await getCart(cart.id)).toEqual(before);
  });

  it("an empty cart has nothing the code applies to", async () => {
    const cart = (await (await api.fetch("/shop/v1/cart", { method: "POST", headers: h() })).json()) as Cart;
    const r = await apply(cart.id, "WINTER10");
    expect(r.status).toBe(422);
    expect((await r.json()).type).toBe(`${PROBLEM}voucher-not-applicable`);
  });
});

describe("the discount is charged", () => {
  it("in the order, the payment, cart.completed and the BI feed", async () => {
    await reset();
    const { cart } = await cartWith(2);
    const applied = (await (await apply(cart.id, "WINTER10")).json()) as PricedCart;
    const r = await checkout(cart.id);
    expect(r.status).toBe(200);
    const { order } = await r.json();
    expect(order.subtotal).toEqual(applied.subtotal);
    expect(order.discounts).toEqual(applied.discounts);
    expect(order.total).toEqual(applied.total);
    expect(order.total.amount).toBeLessThan(order.subtotal.amount);

    const events = await emittedEvents(api, "cart.completed");
    const completed = events.find((e) => e.data.order.id === order.id)?.data.order;
    expect(completed?.total).toEqual(order.total);
    expect(completed?.discounts.map((d) => [d.code, d.amount])).toEqual([
      ["WINTER10", applied.discounts[0]?.amount],
    ]);
    const payments = await emittedEvents(api, "payment.succeeded");
    expect(payments.find((e) => e.data.payment.orderId === order.id)?.data.payment.amount).toEqual(
      order.total,
    );
    expect(await expectEventsConform(api)).toBeGreaterThan(0);

    const bi = await api.fetch(`/bi/v1/odata/Orders('${order.id}')?$select=TotalAmount`, { headers: h() });
    expect(bi.status).toBe(200);
    expect((await bi.json()).TotalAmount).toBe(order.total.amount / 100);
  });
});

describe("limited uses", () => {
  it("200 carts redeem a 10-use code at once: exactly 10 get it, 10 orders redeem it, an 11th cart is refused", async () => {
    await reset();
    const carts = await Promise.all(Array.from({ length: 200 }, () => cartWith(1).then((c) => c.cart.id)));
    const responses = await Promise.all(carts.map((id) => apply(id, "TEN-ONLY")));
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(190);
    const bodies = await Promise.all(responses.map((r) => r.json()));
    for (const [i, body] of bodies.entries()) {
      if (statuses[i] === 409) expect(body.type).toBe(`${PROBLEM}voucher-used-up`);
    }

    const orders = await Promise.all(carts.map((id) => checkout(id).then((r) => r.json())));
    expect(orders.every((o) => o.status === "completed")).toBe(true);
    const redeemed = orders.filter((o) => o.order.discounts.length > 0);
    expect(redeemed).toHaveLength(10);
    for (const o of redeemed)
      expect(o.order.total.amount).toBe(o.order.subtotal.amount - o.order.discounts[0].amount.amount);

    const late = await cartWith(1);
    expect((await apply(late.cart.id, "TEN-ONLY")).status).toBe(409);
  });

  it("a repeat is idempotent: the same code again or the same key takes no second use", async () => {
    await reset(withOneUseCode({ kind: "percentage", percent: 50 }));
    const a = await cartWith(1);
    const first = await apply(a.cart.id, "ONCE", { "idempotency-key": "voucher-once-1" });
    expect(first.status).toBe(200);
    const replay = await apply(a.cart.id, "ONCE", { "idempotency-key": "voucher-once-1" });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(await replay.json()).toEqual(await first.json());
    expect((await apply(a.cart.id, "once")).status).toBe(200);
    // Still one use held: a second cart is refused; once the first removes it, the second gets it.
    const b = await cartWith(1);
    expect((await apply(b.cart.id, "ONCE")).status).toBe(409);
    await remove(a.cart.id);
    expect((await apply(b.cart.id, "ONCE")).status).toBe(200);
  });

  it("a use held by a cart whose hold lapses or that expires comes back (mock clock); its checkout is then refused", async () => {
    await reset(withOneUseCode({ kind: "fixed-amount", amount: { CHF: 1000 } }));
    const a = await cartWith(1);
    expect((await apply(a.cart.id, "ONCE")).status).toBe(200);
    const b = await cartWith(1);
    expect((await apply(b.cart.id, "ONCE")).status).toBe(409);

    await advance(601);
    expect((await apply(b.cart.id, "ONCE")).status).toBe(200);
    // A still shows its code, but its checkout cannot redeem it: nothing is charged, the cart stays open.
    const refused = await checkout(a.cart.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).type).toBe(`${PROBLEM}voucher-used-up`);
    expect((await getCart(a.cart.id)).status).toBe("open");

    // B's cart expires (cart TTL, a day untouched): the use comes back for A.
    await advance(86_401);
    expect((await getCart(b.cart.id)).status).toBe("expired");
    const c = await cartWith(1);
    expect((await apply(c.cart.id, "ONCE")).status).toBe(200);
  });
});
