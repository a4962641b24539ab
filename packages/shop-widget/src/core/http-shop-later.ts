import type { HttpCall, LaterMethods } from "./http-shop-api";
import type { PaymentProvider } from "./types";
import { uuid } from "./uuid";

const path = (...parts: string[]) => parts.map((p) => `/${encodeURIComponent(p)}`).join("");

/**
 * The shop operations past the catalogue over the widget's HTTP transport (loaded with the later steps).
 * Writes carry an idempotency key (see `call`).
 */
export function createLater(http: HttpCall): LaterMethods {
  // Every write carries an Idempotency-Key: the caller's (reused on retries), else a new one.
  const call: HttpCall = (method, url, o, init) =>
    http(method, url, method === "GET" ? o : { ...o, idempotencyKey: o.idempotencyKey ?? uuid() }, init);
  return {
    getEvent: (id, o) => call("GET", `/discovery/events${path(id)}`, o),
    getCart: (id, o) => call("GET", `/cart${path(id)}`, o),
    listCartPaymentProviders: async (id, o) =>
      (await call<{ items: PaymentProvider[] }>("GET", `/cart${path(id)}/payment-providers`, o)).items,
    getPayment: (id, o) => call("GET", `/payments${path(id)}`, o),
    getOrder: (id, o) => call("GET", `/orders${path(id)}`, o),
    getSurvey: (id, o) => call("GET", `/surveys${path(id)}`, o, { root: "/survey/v1" }),
    getAsset: (url, o) => call("GET", url, o, { blob: true }),
    createCart: (body, o) => call("POST", "/cart", o, { body }),
    addCartItem: (id, body, o) => call("POST", `/cart${path(id)}/items`, o, { body }),
    updateCartItem: (id, itemId, quantity, o) =>
      call("PATCH", `/cart${path(id, "items", itemId)}`, o, { body: { quantity } }),
    removeCartItem: (id, itemId, o) => call("DELETE", `/cart${path(id, "items", itemId)}`, o),
    setCartCustomer: (id, customer, o) => call("PUT", `/cart${path(id)}/customer`, o, { body: customer }),
    setCartPaymentProvider: (id, paymentProviderId, o) =>
      call("PUT", `/cart${path(id)}/payment-provider`, o, { body: { paymentProviderId } }),
    checkoutCart: (id, body, o) => call("POST", `/cart${path(id)}/checkout`, o, { body }),
  };
}
