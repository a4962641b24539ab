/**
 * `@entrada/sdk/raw`: the openapi-fetch client (`GET("/shop/v1/...")` style) over an SDK client's transport —
 * the same token, language, idempotency keys, retries and errors. Kept out of `createClient` so that clients which
 * only use the typed sections do not carry openapi-fetch.
 * @example
 * const raw = rawClient(client);
 * const { data } = await raw.GET("/shop/v1/discovery/events/{eventId}", { params: { path: { eventId } } });
 */

import createFetchClient, { type Client } from "openapi-fetch";
import type { EntradaClient } from "./client.ts";
import type { paths } from "./generated/schema.ts";

export function rawClient(client: EntradaClient): Client<paths> {
  return createFetchClient<paths>({ baseUrl: client.baseUrl, fetch: (request) => client.fetch(request) });
}
