/**
 * The last stage: a HEAD answer loses its body, a keyed write's response is stored for replays (or its key
 * abandoned on a 5xx, so the client may retry), and the CORS headers are added.
 */
import { cors } from "../cors.ts";
import type { MockResponse } from "../types.ts";
import type { Exchange, Stage } from "./exchange.ts";

export function finish(): Stage {
  return (ex) => {
    const response = ex.response;
    if (!response) throw new Error("finish runs after an answering stage.");
    if (ex.method === "HEAD") response.body = null;
    if (ex.idempotencyScope !== null) storeWrite(ex, ex.idempotencyScope, response);
    cors(response, ex.origin);
  };
}

/** Stores the keyed write's response for replays (without CORS headers), or abandons the key on a 5xx. */
function storeWrite(ex: Exchange, scope: string, response: MockResponse): void {
  const store = ex.mockSession.idempotency;
  if (response.status >= 500) {
    store.abandon(scope);
    return;
  }
  const { "access-control-allow-origin": _a, vary: _v, ...stored } = response.headers;
  store.complete(scope, {
    status: response.status,
    headers: { ...stored, vary: "Accept-Language" },
    body: response.body,
  });
}
