import { ShopError, toShopError } from "./problem";
import type { SessionTokenSource } from "./session-token";
import type { CallOptions, ShopApi } from "./shop-api";

export interface HttpShopApiOptions {
  /** API base URL, e.g. `https://api.example.com` (the widget appends `/shop/v1/...`). */
  baseUrl: string;
  tokens: SessionTokenSource;
  fetch?: typeof fetch | undefined;
}

type Query = Record<string, string | undefined>;

function newKey(): string {
  return globalThis.crypto.randomUUID();
}

/**
 * A minimal browser transport for the shop operations: session-token bearer auth with one renewal on 401,
 * Accept-Language per call, an Idempotency-Key on every write, RFC 9457 problems turned into ShopErrors.
 */
export function createHttpShopApi(options: HttpShopApiOptions): ShopApi {
  const base = options.baseUrl.replace(/\/+$/, "");

  async function call<T>(
    method: string,
    path: string,
    call: CallOptions,
    init: { query?: Query; body?: unknown; root?: string } = {},
  ): Promise<T> {
    const url = new URL(`${base}${init.root ?? "/shop/v1"}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== "") url.searchParams.set(name, value);
    }
    const write = method !== "GET";
    const idempotencyKey = write ? (call.idempotencyKey ?? newKey()) : undefined;
    const doFetch = options.fetch ?? globalThis.fetch;

    const send = (token: string) => {
      const headers: Record<string, string> = {
        accept: "application/json, application/problem+json",
        "accept-language": call.locale,
        authorization: `Bearer ${token}`,
      };
      if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
      if (init.body !== undefined) headers["content-type"] = "application/json";
      return doFetch(url, {
        method,
        headers,
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        ...(call.signal === undefined ? {} : { signal: call.signal }),
      });
    };

    try {
      let token = await options.tokens.get();
      let response = await send(token);
      if (response.status === 401) {
        token = await options.tokens.renew(token);
        response = await send(token);
      }
      const text = await response.text();
      const body: unknown = text.length > 0 ? JSON.parse(text) : undefined;
      if (!response.ok) throw toShopError({ status: response.status, problem: body ?? {} });
      return body as T;
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw error instanceof ShopError ? error : toShopError(error);
    }
  }

  return {
    listVenues: async (o) => (await call<{ items: never[] }>("GET", "/discovery/venues", o)).items,
    listEvents: (filters, cursor, o) =>
      call("GET", "/discovery/events", o, {
        query: { ...filters, ...(cursor === undefined ? {} : { cursor }), limit: "12" },
      }),
    getEvent: (id, o) => call("GET", `/discovery/events/${encodeURIComponent(id)}`, o),
    createCart: (body, o) => call("POST", "/cart", o, { body }),
    getCart: (id, o) => call("GET", `/cart/${encodeURIComponent(id)}`, o),
    addCartItem: (id, body, o) => call("POST", `/cart/${encodeURIComponent(id)}/items`, o, { body }),
    updateCartItem: (id, itemId, quantity, o) =>
      call("PATCH", `/cart/${encodeURIComponent(id)}/items/${encodeURIComponent(itemId)}`, o, {
        body: { quantity },
      }),
    removeCartItem: (id, itemId, o) =>
      call("DELETE", `/cart/${encodeURIComponent(id)}/items/${encodeURIComponent(itemId)}`, o),
    setCartCustomer: (id, customer, o) =>
      call("PUT", `/cart/${encodeURIComponent(id)}/customer`, o, { body: customer }),
    listCartPaymentProviders: async (id, o) =>
      (await call<{ items: never[] }>("GET", `/cart/${encodeURIComponent(id)}/payment-providers`, o)).items,
    setCartPaymentProvider: (id, paymentProviderId, o) =>
      call("PUT", `/cart/${encodeURIComponent(id)}/payment-provider`, o, { body: { paymentProviderId } }),
    checkoutCart: (id, body, o) => call("POST", `/cart/${encodeURIComponent(id)}/checkout`, o, { body }),
    getPayment: (id, o) => call("GET", `/payments/${encodeURIComponent(id)}`, o),
    getOrder: (id, o) => call("GET", `/orders/${encodeURIComponent(id)}`, o),
    getSurvey: (id, o) => call("GET", `/surveys/${encodeURIComponent(id)}`, o, { root: "/survey/v1" }),
  };
}
