import { ShopError, toShopError } from "./problem";
import type { SessionTokenSource } from "./session-token";
import type { CallOptions, ShopApi } from "./shop-api";
import type { PaymentProvider, Venue } from "./types";

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

export type WriteMethods = Pick<
  ShopApi,
  | "createCart"
  | "addCartItem"
  | "updateCartItem"
  | "removeCartItem"
  | "setCartCustomer"
  | "setCartPaymentProvider"
  | "checkoutCart"
>;

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
    init: { query?: Query; body?: unknown; root?: string; blob?: boolean } = {},
  ): Promise<T> {
    // Asset links (ticket PDFs, receipts) come as absolute URLs from the API.
    const url = new URL(/^https?:/.test(path) ? path : `${base}${init.root ?? "/shop/v1"}${path}`);
    for (const [name, value] of Object.entries(init.query ?? {})) {
      if (value !== undefined && value !== "") url.searchParams.set(name, value);
    }
    const write = method !== "GET";
    const idempotencyKey = write ? (call.idempotencyKey ?? newKey()) : undefined;
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

  const path = (...parts: string[]) => parts.map((p) => `/${encodeURIComponent(p)}`).join("");
  // The writes (cart, customer, checkout) load with the later steps; the catalogue needs only the reads.
  let writes: Promise<WriteMethods> | undefined;
  const write =
    <K extends keyof WriteMethods>(name: K) =>
    async (...args: Parameters<WriteMethods[K]>): Promise<Awaited<ReturnType<WriteMethods[K]>>> => {
      writes ??= import("./http-shop-writes").then((m) => m.createWrites(call));
      const methods = await writes;
      return await (methods[name] as (...a: Parameters<WriteMethods[K]>) => ReturnType<WriteMethods[K]>)(
        ...args,
      );
    };

  return {
    listVenues: async (o) => (await call<{ items: Venue[] }>("GET", "/discovery/venues", o)).items,
    listEvents: (filters, cursor, o) =>
      call("GET", "/discovery/events", o, {
        query: { ...filters, ...(cursor === undefined ? {} : { cursor }), limit: "12" },
      }),
    getEvent: (id, o) => call("GET", `/discovery/events${path(id)}`, o),
    getCart: (id, o) => call("GET", `/cart${path(id)}`, o),
    listCartPaymentProviders: async (id, o) =>
      (await call<{ items: PaymentProvider[] }>("GET", `/cart${path(id)}/payment-providers`, o)).items,
    getPayment: (id, o) => call("GET", `/payments${path(id)}`, o),
    getOrder: (id, o) => call("GET", `/orders${path(id)}`, o),
    getSurvey: (id, o) => call("GET", `/surveys${path(id)}`, o, { root: "/survey/v1" }),
    getAsset: (url, o) => call("GET", url, o, { blob: true }),
    createCart: write("createCart"),
    addCartItem: write("addCartItem"),
    updateCartItem: write("updateCartItem"),
    removeCartItem: write("removeCartItem"),
    setCartCustomer: write("setCartCustomer"),
    setCartPaymentProvider: write("setCartPaymentProvider"),
    checkoutCart: write("checkoutCart"),
  };
}
