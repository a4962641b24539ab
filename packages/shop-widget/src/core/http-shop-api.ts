import { ShopError, toShopError } from "./problem";
import type { SessionTokenSource } from "./session-token";
import type { CallOptions, ShopApi } from "./shop-api";
import type { Venue } from "./types";

export interface HttpShopApiOptions {
  /** API base URL, e.g. `https://api.example.com` (the widget appends `/shop/v1/...`). */
  baseUrl: string;
  tokens: SessionTokenSource;
  fetch?: typeof fetch | undefined;
}

type Query = Record<string, string | undefined>;

export type HttpCall = <T>(
  method: string,
  path: string,
  options: CallOptions,
  init?: { query?: Query; body?: unknown; root?: string; blob?: boolean },
) => Promise<T>;

export type LaterMethods = Omit<ShopApi, "listVenues" | "listEvents">;

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
    init: { query?: Query; body?: unknown; root?: string; blob?: boolean } = {},
  ): Promise<T> {
    // Asset links (ticket PDFs, receipts) come as absolute URLs from the API.
    const url = new URL(/^https?:/.test(path) ? path : `${base}${init.root ?? "/shop/v1"}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== "") url.searchParams.set(name, value);
    }
    // Writes come from the later methods, which always pass a key (see http-shop-later.ts).
    const idempotencyKey = call.idempotencyKey;
    const doFetch = options.fetch ?? globalThis.fetch;

    const send = (token: string) => {
      const headers: Record<string, string> = {
        accept: init.blob ? "*/*" : "application/json, application/problem+json",
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
      if (init.blob && response.ok) return (await response.blob()) as T;
      const text = await response.text();
      const body: unknown = text.length > 0 ? JSON.parse(text) : undefined;
      if (!response.ok) throw toShopError({ status: response.status, problem: body ?? {} });
      return body as T;
    } catch (error) {
      if (call.signal?.aborted) throw error;
      throw error instanceof ShopError ? error : toShopError(error);
    }
  }

  // Everything past the catalogue (event, cart, checkout, tickets) loads with the later steps.
  let rest: Promise<LaterMethods> | undefined;
  const later =
    <K extends keyof LaterMethods>(name: K) =>
    async (...args: Parameters<LaterMethods[K]>): Promise<Awaited<ReturnType<LaterMethods[K]>>> => {
      rest ??= import("./http-shop-later").then((m) => m.createLater(call));
      const methods = await rest;
      return await (methods[name] as (...a: Parameters<LaterMethods[K]>) => ReturnType<LaterMethods[K]>)(
        ...args,
      );
    };

  return {
    listVenues: async (o) => (await call<{ items: Venue[] }>("GET", "/discovery/venues", o)).items,
    listEvents: (filters, cursor, o) =>
      call("GET", "/discovery/events", o, {
        query: { ...filters, ...(cursor === undefined ? {} : { cursor }), limit: "12" },
      }),
    getEvent: later("getEvent"),
    getCart: later("getCart"),
    listCartPaymentProviders: later("listCartPaymentProviders"),
    getPayment: later("getPayment"),
    getOrder: later("getOrder"),
    getSurvey: later("getSurvey"),
    getAsset: later("getAsset"),
    createCart: later("createCart"),
    addCartItem: later("addCartItem"),
    updateCartItem: later("updateCartItem"),
    removeCartItem: later("removeCartItem"),
    setCartCustomer: later("setCartCustomer"),
    setCartPaymentProvider: later("setCartPaymentProvider"),
    checkoutCart: later("checkoutCart"),
  };
}
