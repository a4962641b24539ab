import { createShopClient, type SessionTokenGrant, type TokenRequest } from "@entrada/sdk/shop";
import { createSdkShopApi } from "./sdk-shop-api";
import type { ShopApi } from "./shop-api";

/** What `fetchSessionToken` is told: the SDK's token request (`{}`, or `{ rejectedToken, sessionId }` after a 401). */
export type SessionTokenRequest = TokenRequest;
export type { SessionTokenGrant };

/** Asks the host's backend for a session token (a bare token, or `{ sessionToken, sessionId }`). */
export type FetchSessionToken = (request: SessionTokenRequest) => Promise<string | SessionTokenGrant>;

export interface DefaultShopApiOptions {
  /** API base URL, e.g. `https://api.example.com` (the widget calls `/shop/v1/...` under it). */
  baseUrl: string;
  /** A session token the host's backend created. */
  sessionToken?: string | undefined;
  /** Asks the host's backend for a session token: at start without `sessionToken`, and once per rejected token. */
  fetchSessionToken?: FetchSessionToken | undefined;
  fetch?: typeof fetch | undefined;
}

/**
 * The widget's default transport: the SDK's lean shop client (`@entrada/sdk/shop`), so token renewal on a `401`,
 * idempotency keys reused across retries, retries with `Retry-After`, timeouts and problem parsing are the same
 * code integrators run — session tokens included: the SDK asks for one once for any number of parallel calls, and
 * after a `401` once per rejected token, naming its shop session, so the host's backend renews it (the cart stays).
 */
export function createDefaultShopApi({
  baseUrl,
  sessionToken,
  fetchSessionToken,
  fetch,
}: DefaultShopApiOptions): ShopApi {
  const client = createShopClient({
    baseUrl,
    fetch,
    // The host's token first; its function without one, and for every token the API rejects. Neither: each call
    // fails as an expired session.
    sessionToken: fetchSessionToken
      ? (request) =>
          request.rejectedToken === undefined && sessionToken ? sessionToken : fetchSessionToken(request)
      : (sessionToken ?? (() => Promise.reject(new Error("no sessionToken or fetchSessionToken")))),
  });
  return createSdkShopApi(client);
}
