/**
 * Adapter for hosts that already run `@entrada/sdk` in the browser: pass the client instance, the widget
 * calls the shop through it (its retries, idempotency keys, session-token renewal and language).
 *
 * @example
 * import { createClient } from "@entrada/sdk";
 * import { mount } from "@entrada/shop-widget";
 * import { createSdkShopApi } from "@entrada/shop-widget/sdk";
 * // {} at start; { rejectedToken, sessionId } after a 401: the backend renews that session (the cart stays)
 * const client = createClient({ baseUrl, sessionToken: (request) => askMyBackend(request) }); // → { sessionToken, sessionId }
 * mount("#tickets", { api: createSdkShopApi(client) });
 */
export { createSdkShopApi } from "./core/sdk-shop-api";
