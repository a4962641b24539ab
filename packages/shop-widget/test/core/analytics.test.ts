import { describe, expect, it, vi } from "vitest";
import { createTracker, moneyValue, resolveDataLayer } from "../../src/core/analytics";

const memory = () => {
  const ids = new Set<string>();
  return { has: (id: string) => ids.has(id), add: (id: string) => void ids.add(id) };
};

describe("analytics", () => {
  it("is off by default: no sink, no output", () => {
    const dataLayer: unknown[] = [];
    const tracker = createTracker(() => ({}), memory());
    tracker.track("view_cart", { currency: "CHF", value: 10, items: [] });
    expect(dataLayer).toEqual([]);
  });

  it("clears the ecommerce object before every push", () => {
    const dataLayer: unknown[] = [];
    const tracker = createTracker(() => ({ dataLayer }), memory());
    tracker.track("add_to_cart", {
      currency: "CHF",
      value: 50,
      items: [{ item_id: "art_1", item_name: "A", quantity: 2 }],
    });
    tracker.track("view_cart", { currency: "CHF", value: 50, items: [] });
    expect(dataLayer).toEqual([
      { ecommerce: null },
      {
        event: "add_to_cart",
        ecommerce: { currency: "CHF", value: 50, items: [{ item_id: "art_1", item_name: "A", quantity: 2 }] },
      },
      { ecommerce: null },
      { event: "view_cart", ecommerce: { currency: "CHF", value: 50, items: [] } },
    ]);
  });

  it("refuses a value without a currency", () => {
    const onEvent = vi.fn();
    const tracker = createTracker(() => ({ onEvent }), memory());
    expect(() => tracker.track("view_cart", { value: 10, items: [] })).toThrow(/currency/);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("sends purchase once per transaction id", () => {
    const onEvent = vi.fn();
    const seen = memory();
    const tracker = createTracker(() => ({ onEvent }), seen);
    const params = { transaction_id: "ord_1", currency: "CHF", value: 20, items: [] };
    tracker.track("purchase", params);
    tracker.track("purchase", params);
    // A second tracker sharing the persisted set (remount, return from a payment page) stays silent too.
    createTracker(() => ({ onEvent }), seen).track("purchase", params);
    expect(onEvent).toHaveBeenCalledTimes(1);
    tracker.track("purchase", { ...params, transaction_id: "ord_2" });
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it("converts minor units by the currency's digits", () => {
    expect(moneyValue({ amount: 2550, currency: "CHF" })).toBe(25.5);
    expect(moneyValue({ amount: 1200, currency: "JPY" })).toBe(1200);
  });

  it("resolves the data layer option", () => {
    const own: unknown[] = [];
    expect(resolveDataLayer(own)).toBe(own);
    expect(resolveDataLayer(undefined)).toBeUndefined();
    expect(resolveDataLayer(false)).toBeUndefined();
    const created = resolveDataLayer("shopLayer");
    expect((globalThis as unknown as { shopLayer: unknown[] }).shopLayer).toBe(created);
  });
});
