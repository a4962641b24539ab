import {
  type EntradaFetchInit,
  isErrorKind,
  type Locale,
  responseError,
  type ShopSection,
  type SurveySection,
} from "@entrada/sdk/shop";
import type { CallOptions, ShopApi } from "./shop-api";
import type { Survey } from "./survey";
import type { CheckoutResult, EventListing, Page } from "./types";

/**
 * What the adapter needs of an SDK client: the lean shop client (`createShopClient` from `@entrada/sdk/shop`,
 * the widget's default) or a full `createClient(...)` client.
 */
export interface SdkShopClient {
  readonly shop: ShopSection;
  readonly survey: SurveySection;
  fetch(input: string, init?: EntradaFetchInit): Promise<Response>;
}

/**
 * The call's data; its failure is the SDK's `EntradaError` as is, except the caller's own abort (a newer search,
 * an unmount), which ends the call with the signal's reason, as `fetch` does.
 */
async function run<T>(promise: Promise<{ data: T }>): Promise<T> {
  try {
    return (await promise).data;
  } catch (error) {
    throw isErrorKind(error, "aborted") ? error.reason : error;
  }
}

/** What the catalogue embeds for the widget: the event step needs every event's slots and articles. */
const INCLUDE: ("slots" | "assortments")[] = ["slots", "assortments"];

const opts = (o: CallOptions) => ({
  locale: o.locale as Locale,
  ...(o.signal ? { signal: o.signal } : {}),
  ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}),
});

/**
 * The shop operations over an `@entrada/sdk` client (the SDK brings session-token renewal on 401, idempotency
 * keys reused across retries, retries of network failures and problem parsing).
 *
 * @example
 * // The SDK calls the function with {} at start and { rejectedToken, sessionId } after a 401 (once per token).
 * const client = createShopClient({
 *   baseUrl,
 *   sessionToken: (request) =>
 *     fetch("/backend/shop-session", { method: "POST", body: JSON.stringify(request) }).then((r) => r.json()),
 * });
 * mount("#shop", { api: createSdkShopApi(client) });
 */
export function createSdkShopApi(client: SdkShopClient): ShopApi {
  const shop = client.shop;
  return {
    listVenues: async (o) => (await run(shop.listVenues.orThrow({ ...opts(o) }))).items,
    // With slots and assortments: the event step renders from the list at once (issue 19).
    listEvents: (filters, cursor, o) =>
      run(
        shop.listEvents.orThrow({
          params: {
            query: { ...filters, ...(cursor === undefined ? {} : { cursor }), limit: 12, include: INCLUDE },
          },
          ...opts(o),
        }),
      ) as Promise<Page<EventListing>>,
    getEvent: (eventId, o) => run(shop.getEvent.orThrow({ params: { path: { eventId } }, ...opts(o) })),
    createCart: (body, o) =>
      run(shop.createCart.orThrow({ body: body as { currency?: "CHF" | "EUR" }, ...opts(o) })),
    getCart: (id, o) => run(shop.getCart.orThrow({ params: { path: { id } }, ...opts(o) })),
    addCartItem: (id, body, o) =>
      run(shop.addCartItem.orThrow({ params: { path: { id } }, body, ...opts(o) })),
    updateCartItem: (id, itemId, quantity, o) =>
      run(shop.updateCartItem.orThrow({ params: { path: { id, itemId } }, body: { quantity }, ...opts(o) })),
    removeCartItem: (id, itemId, o) =>
      run(shop.removeCartItem.orThrow({ params: { path: { id, itemId } }, ...opts(o) })),
    setCartCustomer: (id, customer, o) =>
      run(shop.setCartCustomer.orThrow({ params: { path: { id } }, body: customer, ...opts(o) })),
    applyCartVoucher: (id, code, o) =>
      run(shop.applyCartVoucher.orThrow({ params: { path: { id } }, body: { code }, ...opts(o) })),
    removeCartVoucher: (id, o) =>
      run(shop.removeCartVoucher.orThrow({ params: { path: { id } }, ...opts(o) })),
    listCartPaymentProviders: async (id, o) =>
      (await run(shop.listCartPaymentProviders.orThrow({ params: { path: { id } }, ...opts(o) }))).items,
    setCartPaymentProvider: (id, paymentProviderId, o) =>
      run(
        shop.setCartPaymentProvider.orThrow({
          params: { path: { id } },
          body: { paymentProviderId },
          ...opts(o),
        }),
      ),
    checkoutCart: async (id, body, o) =>
      (await run(
        shop.checkoutCart.orThrow({ params: { path: { id } }, body, ...opts(o) }),
      )) as CheckoutResult,
    getPayment: (paymentId, o) =>
      run(shop.getPayment.orThrow({ params: { path: { paymentId } }, ...opts(o) })),
    getOrder: (orderId, o) => run(shop.getOrder.orThrow({ params: { path: { orderId } }, ...opts(o) })),
    getAsset: (url, o) =>
      run(
        client.fetch(url, opts(o)).then(async (response) => {
          if (!response.ok) throw await responseError(response, { method: "GET", url });
          return { data: await response.blob() };
        }),
      ),
    getSurvey: (surveyId, o) =>
      run(client.survey.getSurvey.orThrow({ params: { path: { surveyId } }, ...opts(o) })) as Promise<Survey>,
  };
}
