import type { HttpCall, WriteMethods } from "./http-shop-api";

const path = (...parts: string[]) => parts.map((p) => `/${encodeURIComponent(p)}`).join("");

/** The shop's write operations over the widget's HTTP transport (idempotency key on each; see `call`). */
export function createWrites(call: HttpCall): WriteMethods {
  return {
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
