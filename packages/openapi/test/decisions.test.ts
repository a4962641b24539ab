// The token, shop and sessions operations exist exactly as DECISIONS.md lists them: the SDK groups methods by
// tag and the mock server binds handlers by operationId, so a rename here breaks both.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generatedDir } from "./document";

interface Entry {
  method: string;
  path: string;
  tag: string | null;
  write: boolean;
  scopes: string[];
  session: boolean;
}
const table = JSON.parse(readFileSync(path.join(generatedDir, "operations.json"), "utf8")) as Record<
  string,
  Entry
>;

const shop = (method: string, route: string, session = true) => ({
  method,
  path: `/shop/v1${route}`,
  tag: "shop",
  write: method !== "GET",
  scopes: ["Shop"],
  session,
});

const expected: Record<string, Entry> = {
  createToken: {
    method: "POST",
    path: "/connect/token",
    tag: "token",
    write: true,
    scopes: [],
    session: false,
  },
  getSystemConfiguration: shop("GET", "/system/configuration"),
  listVenues: shop("GET", "/discovery/venues"),
  listEvents: shop("GET", "/discovery/events"),
  getEvent: shop("GET", "/discovery/events/{eventId}"),
  createCart: shop("POST", "/cart"),
  getCart: shop("GET", "/cart/{id}"),
  addCartItem: shop("POST", "/cart/{id}/items"),
  updateCartItem: shop("PATCH", "/cart/{id}/items/{itemId}"),
  removeCartItem: shop("DELETE", "/cart/{id}/items/{itemId}"),
  setCartCustomer: shop("PUT", "/cart/{id}/customer"),
  listCartPaymentProviders: shop("GET", "/cart/{id}/payment-providers"),
  setCartPaymentProvider: shop("PUT", "/cart/{id}/payment-provider"),
  checkoutCart: shop("POST", "/cart/{id}/checkout"),
  getPayment: shop("GET", "/payments/{paymentId}"),
  getOrder: shop("GET", "/orders/{orderId}"),
  listOrderTickets: shop("GET", "/orders/{orderId}/tickets"),
  createSession: { ...shop("POST", "/sessions", false), tag: "sessions" },
};

describe("operations.json", () => {
  it.each(Object.entries(expected))("%s matches DECISIONS.md", (operationId, entry) => {
    expect(table[operationId]).toEqual(entry);
  });

  it("every entry has a known method and a tag", () => {
    for (const [operationId, entry] of Object.entries(table)) {
      expect(["GET", "POST", "PUT", "PATCH", "DELETE"], operationId).toContain(entry.method);
      expect(entry.write, operationId).toBe(entry.method !== "GET");
      expect(typeof entry.tag, operationId).toBe("string");
    }
  });
});
