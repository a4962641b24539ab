/**
 * Voucher codes through the SDK's generated shop methods against the mock (msw): the discount line and totals are
 * typed, refusals are `EntradaProblemError`s whose `slug` is one of the operation's documented problems.
 */
import { createMock } from "@entrada/mock-server/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { createClient, EntradaProblemError, type OperationProblems } from "../../src/index.ts";

const BASE = "https://api.vouchers.entrada.test";
const mock = createMock({ baseUrl: BASE });
const server = setupServer(...mock.handlers);
const client = createClient({
  baseUrl: BASE,
  clientId: "entrada-demo",
  clientSecret: "demo-secret",
  locale: "en-GB",
});

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => mock.reset());
afterAll(() => server.close());

async function cartWithTickets(quantity: number) {
  const { data: page } = await client.shop.listEvents.orThrow({ params: { query: { limit: 1 } } });
  const eventId = page.items[0]?.id ?? "";
  const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId } } });
  const { data: cart } = await client.shop.createCart.orThrow({ body: {} });
  const articleId = event.pricingAssortments[0]?.articles[0]?.id ?? "";
  const slotId = event.slots[0]?.id ?? "";
  const { data } = await client.shop.addCartItem.orThrow({
    params: { path: { id: cart.id } },
    body: { articleId, slotId, quantity },
  });
  return data;
}

describe("voucher codes through the SDK", () => {
  it("applies and removes a code: a typed discount line, subtotal and discounted total", async () => {
    const cart = await cartWithTickets(2);
    const { data: applied } = await client.shop.applyCartVoucher.orThrow({
      params: { path: { id: cart.id } },
      body: { code: "WINTER10" },
    });
    expectTypeOf(applied.discounts[0]?.kind).toEqualTypeOf<
      "percentage" | "fixed-amount" | "free-ticket" | undefined
    >();
    expect(applied.discounts).toEqual([
      {
        code: "WINTER10",
        kind: "percentage",
        name: "10 % off",
        amount: { amount: Math.round(applied.subtotal.amount / 10), currency: "CHF" },
      },
    ]);
    expect(applied.total.amount).toBe(applied.subtotal.amount - (applied.discounts[0]?.amount.amount ?? 0));

    const { data: removed } = await client.shop.removeCartVoucher.orThrow({
      params: { path: { id: cart.id } },
    });
    expect(removed.discounts).toEqual([]);
    expect(removed.total).toEqual(removed.subtotal);
  });

  it("reports a refused code as a typed problem with the code, and a malformed one as a validation error", async () => {
    expectTypeOf<"voucher-used-up">().toExtend<OperationProblems["applyCartVoucher"]>();
    expectTypeOf<"voucher-used-up">().toExtend<OperationProblems["checkoutCart"]>();
    const cart = await cartWithTickets(1);
    const expired = await client.shop.applyCartVoucher({
      params: { path: { id: cart.id } },
      body: { code: "summer25" },
    });
    expect(expired.error).toBeInstanceOf(EntradaProblemError);
    if (expired.error?.kind !== "problem") throw new Error("expected a problem");
    expect(expired.error.slug).toBe("voucher-expired");
    expect(expired.error.status).toBe(422);
    expect(expired.error.problem.code).toBe("SUMMER25");

    const malformed = await client.shop.applyCartVoucher({
      params: { path: { id: cart.id } },
      body: { code: "WINTER\u000010" },
    });
    if (malformed.error?.kind !== "problem") throw new Error("expected a problem");
    expect(malformed.error.slug).toBe("validation-error");
    expect(malformed.error.errors.map((e) => e.pointer)).toContain("/body/code");
  });

  it("removing the code of a paid cart is a `conflict` the operation declares (issue 31)", async () => {
    expectTypeOf<"conflict">().toExtend<OperationProblems["removeCartVoucher"]>();
    expectTypeOf<"hold-expired">().toExtend<OperationProblems["applyCartVoucher"]>();
    const cart = await cartWithTickets(1);
    await client.shop.applyCartVoucher.orThrow({
      params: { path: { id: cart.id } },
      body: { code: "WINTER10" },
    });
    await client.shop.setCartCustomer.orThrow({
      params: { path: { id: cart.id } },
      body: { firstName: "Anna", lastName: "Meier", email: "anna.meier@example.ch" },
    });
    await client.shop.setCartPaymentProvider.orThrow({
      params: { path: { id: cart.id } },
      body: { paymentProviderId: "card" },
    });
    await client.shop.checkoutCart.orThrow({
      params: { path: { id: cart.id } },
      body: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    const removed = await client.shop.removeCartVoucher({ params: { path: { id: cart.id } } });
    if (removed.error?.kind !== "problem") throw new Error("expected a problem");
    const slug: OperationProblems["removeCartVoucher"] = removed.error.slug;
    expect(slug).toBe("conflict");
    expect(removed.error.status).toBe(409);
  });
});
