import { createShopClient } from "@entrada/sdk/shop";
import { createSdkShopApi } from "./sdk-shop-api";
import type { SessionTokenSource } from "./session-token";
import type { ShopApi } from "./shop-api";

export interface HttpShopApiOptions {
  /** API base URL, e.g. `https://api.example.com` (the widget calls `/shop/v1/...` under it). */
  baseUrl: string;
  tokens: SessionTokenSource;
  fetch?: typeof fetch | undefined;
}

/**
 * The widget's default transport: the SDK's lean shop client (`@entrada/sdk/shop`), so token renewal on a `401`,
 * idempotency keys reused across retries, retries with `Retry-After`, timeouts and problem parsing are the same
 * code integrators run. The widget's session-token source answers the SDK's token requests: `{}` at start, and
 * `{ rejectedToken }` after a `401` (the host's `fetchSessionToken` then renews the visitor's session).
 */
export function createHttpShopApi(options: HttpShopApiOptions): ShopApi {
  const { tokens } = options;
  const client = createShopClient({
    baseUrl: options.baseUrl,
    sessionToken: (request) => (request.rejectedToken ? tokens.renew(request.rejectedToken) : tokens.get()),
    fetch: options.fetch,
  });
  return createSdkShopApi(client);
}
