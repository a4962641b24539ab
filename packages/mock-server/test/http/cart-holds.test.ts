/**
 * Holds, lapsed carts and what the contract declares for them (issue 31), over real HTTP with strict response
 * validation: every change of a cart starts its hold again; a lapsed hold makes the cart `expired`, and every change
 * and the checkout then answer `409 hold-expired` without taking seats or a voucher's use back; a paid cart answers
 * `409 conflict`, which every cart-changing operation declares; a percentage is taken once of the lines' sum; a
 * seed's voucher name given as one string is kept whole.
 */
import catalogue from "@entrada/openapi/catalogue.json" with { type: "json" };
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type Api,
  bearer,
  type Cart,
  emittedEvents,
  problemOf,
  read,
  readyCart,
  startApi,
} from "../helpers.ts";

const CARD = { paymentMethod: { cardNumber: "4242424242424242" } };
const HOLD_MS = 600_000;

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({});
});
afterAll(() => api.close());

async function reset(seed: unknown = { shop: { slotCapacity: 20 } }) {
  await api.fetch("/__mock/reset", { method: "POST", json: { seed } });
  // A stopped clock: a hold's end is then exactly the change's moment plus the window, however slow the machine.
  await api.fetch("/__mock/clock", { method: "POST", json: { freeze: true } });
  token = await api.token();
}
async function advance(seconds: number) {
  await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: seconds } });
  token = await api.token();
}
async function clockMs(): Promise<number> {
  return (await read.clock(await api.fetch("/__mock/clock"))).epochMs;
}
function send(method: string, path: string, json?: unknown, language = "en-GB") {
  return api.fetch(path, {
    method,
    headers: bearer(token, { "accept-language": language }),
    ...(json === undefined ? {} : { json }),
  });
}
async function cartOf(id: string): Promise<Cart> {
  return (await send("GET", `/shop/v1/cart/${id}`)).json();
}
async function available(eventId: string, slotId: string): Promise<number> {
  const event = await (await send("GET", `/shop/v1/discovery/events/${eventId}`)).json();
  return (
    (event.slots as Array<{ id: string; available: number }>).find((s) => s.id === slotId)?.available ?? -1
  );
}

describe("holds run from the cart's last change", () => {
  beforeEach(() => reset());

  const changes: Array<[string, (cartId: string) => Promise<Response>]> = [
    ["applyCartVoucher", (id) => send("PUT", `/shop/v1/cart/${id}/voucher`, { code: "WINTER10" })],
    [
      "removeCartVoucher",
      async (id) => {
        await send("PUT", `/shop/v1/cart/${id}/voucher`, { code: "WINTER10" });
        return send("DELETE", `/shop/v1/cart/${id}/voucher`);
      },
    ],
    [
      "setCartCustomer",
      (id) =>
        send("PUT", `/shop/v1/cart/${id}/customer`, { firstName: "Eva", lastName: "Rossi", email: "e@x.ch" }),
    ],
    [
      "setCartPaymentProvider",
      (id) => send("PUT", `/shop/v1/cart/${id}/payment-provider`, { paymentProviderId: "redirect" }),
    ],
  ];

  for (const [operation, change] of changes) {
    it(`${operation} extends the hold; the seats stay held past the first window`, async () => {
      const { cart, event } = await readyCart(api, token);
      const slotId = cart.items[0]?.slotId ?? "";
      const free = await available(event.id, slotId);
      await advance(500);
      const response = await change(cart.id);
      expect(response.status).toBe(200);
      const changed = (await response.json()) as Cart;
      const now = await clockMs();
      expect(Date.parse(changed.holdExpiresAt ?? "")).toBe(Math.floor((now + HOLD_MS) / 1000) * 1000);
      // 1 000 s after the item was added, 500 s after the change: still open, still held.
      await advance(500);
      expect((await cartOf(cart.id)).status).toBe("open");
      expect(await available(event.id, slotId)).toBe(free);
    });
  }
});

describe("a lapsed hold expires the cart", () => {
  it("reads as expired with cart.expired emitted; checkout and changes answer 409 hold-expired and take nothing", async () => {
    const name = { "de-CH": "Einmal", "fr-CH": "Une fois", "it-CH": "Una volta", "en-GB": "Once" };
    await reset({
      shop: {
        slotCapacity: 20,
        vouchers: [{ code: "ONCE", kind: "fixed-amount", amount: { CHF: 500 }, maxUses: 1, name }],
      },
    });
    const { cart, event } = await readyCart(api, token, { quantity: 3 });
    const slotId = cart.items[0]?.slotId ?? "";
    expect((await send("PUT", `/shop/v1/cart/${cart.id}/voucher`, { code: "ONCE" })).status).toBe(200);
    const full = (await available(event.id, slotId)) + 3;

    await advance(601);
    const expired = await cartOf(cart.id);
    expect(expired.status).toBe("expired");
    expect(await available(event.id, slotId)).toBe(full);
    expect((await emittedEvents(api, "cart.expired")).map((e) => e.data.cart.id)).toContain(cart.id);

    // Nothing competes for the seats, and still nothing is taken back: the cart is over.
    const checkout = await send("POST", `/shop/v1/cart/${cart.id}/checkout`, CARD);
    expect(checkout.status).toBe(409);
    expect((await problemOf(checkout)).type).toBe("https://docs.entrada.dev/problems/hold-expired");
    expect(await available(event.id, slotId)).toBe(full);
    for (const response of [
      await send("POST", `/shop/v1/cart/${cart.id}/items`, {
        articleId: cart.items[0]?.articleId,
        slotId,
        quantity: 1,
      }),
      await send("PUT", `/shop/v1/cart/${cart.id}/voucher`, { code: "ONCE" }),
      await send("DELETE", `/shop/v1/cart/${cart.id}/voucher`),
      await send("PUT", `/shop/v1/cart/${cart.id}/payment-provider`, { paymentProviderId: "card" }),
    ]) {
      expect(response.status).toBe(409);
      expect((await problemOf(response)).type).toBe("https://docs.entrada.dev/problems/hold-expired");
    }
    expect(await available(event.id, slotId)).toBe(full);
    // The code's one use went back with the hold and was not taken again: another cart gets it.
    const other = await readyCart(api, token);
    expect((await send("PUT", `/shop/v1/cart/${other.cart.id}/voucher`, { code: "ONCE" })).status).toBe(200);
    expect((await cartOf(cart.id)).status).toBe("expired");
  });
});

describe("the problems the contract declares", () => {
  it("removeCartVoucher on a paid cart is a 409 conflict, declared for it and every cart change", async () => {
    await reset();
    const { cart } = await readyCart(api, token);
    expect((await send("POST", `/shop/v1/cart/${cart.id}/checkout`, CARD)).status).toBe(200);
    const response = await send("DELETE", `/shop/v1/cart/${cart.id}/voucher`);
    expect(response.status).toBe(409);
    const problem = await problemOf(response);
    expect(problem.type).toBe("https://docs.entrada.dev/problems/conflict");
    const conflict = catalogue.problems.find((p) => p.slug === "conflict")?.operations ?? [];
    for (const operation of [
      "addCartItem",
      "removeCartItem",
      "updateCartItem",
      "setCartCustomer",
      "setCartPaymentProvider",
      "applyCartVoucher",
      "removeCartVoucher",
      "checkoutCart",
    ]) {
      expect(conflict, operation).toContain(operation);
    }
    const holdExpired = catalogue.problems.find((p) => p.slug === "hold-expired")?.operations ?? [];
    expect(holdExpired).toContain("applyCartVoucher");
  });
});

describe("voucher texts and arithmetic", () => {
  const slot = (id: string, day: number) => ({
    id,
    startsAt: `2099-0${day}-01T19:00:00Z`,
    endsAt: `2099-0${day}-01T22:00:00Z`,
    capacity: 50,
  });
  const seed = {
    shop: {
      catalogue: {
        venues: [{ id: "ven_ROUND", name: "Saal", city: "Bern" }],
        events: [
          {
            id: "evt_ROUND",
            slug: "round",
            venueId: "ven_ROUND",
            name: "Rundung",
            summary: "",
            description: "",
            surveyId: null,
            slots: [slot("slt_ROUND1", 1), slot("slt_ROUND2", 2)],
            pricingAssortments: [
              {
                id: "asr_ROUND",
                name: "Standard",
                articles: [
                  {
                    id: "art_ROUND",
                    slug: "adult",
                    name: "Erwachsene",
                    description: "",
                    price: { CHF: 2750 },
                    maxPerOrder: 10,
                  },
                ],
              },
            ],
          },
        ],
      },
      vouchers: [{ code: "FIFTEEN", kind: "percentage", percent: 15, name: "Hausrabatt" }],
    },
  };

  it("a percentage is taken once of the lines' sum (15 % of 27.50 + 27.50 is 8.25); a plain-string name is kept whole", async () => {
    await reset(seed);
    const cart = (await (await send("POST", "/shop/v1/cart")).json()) as Cart;
    for (const slotId of ["slt_ROUND1", "slt_ROUND2"]) {
      const added = await send("POST", `/shop/v1/cart/${cart.id}/items`, {
        articleId: "art_ROUND",
        slotId,
        quantity: 1,
      });
      expect(added.status).toBe(201);
    }
    const applied = (await (
      await send("PUT", `/shop/v1/cart/${cart.id}/voucher`, { code: "fifteen" })
    ).json()) as Cart;
    expect(applied.items).toHaveLength(2);
    expect(applied.subtotal.amount).toBe(5500);
    expect(applied.discounts).toEqual([
      { code: "FIFTEEN", kind: "percentage", name: "Hausrabatt", amount: { amount: 825, currency: "CHF" } },
    ]);
    expect(applied.total.amount).toBe(4675);
    const french = (await (await send("GET", `/shop/v1/cart/${cart.id}`, undefined, "fr-CH")).json()) as Cart;
    expect(french.discounts[0]?.name).toBe("Hausrabatt");
  });
});
