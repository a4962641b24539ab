import type { FetchSessionToken, SessionTokenGrant } from "@entrada/shop-widget/react";

/**
 * The browser side: asks the host's own backend (`POST /backend/shop-session`, see `backend.ts`) for a shop
 * session token. The widget calls it with `{}` at start and `{ rejectedToken, sessionId }` when the API rejected
 * the token; the backend answers `{ sessionToken, sessionId }`, so the next renewal names the session.
 */
export const fetchShopSession: FetchSessionToken = async (request) => {
  const response = await fetch(new URL("/backend/shop-session", location.href), {
    method: "POST",
    headers: { "content-type": "application/json" },
    credentials: "same-origin", // the visitor cookie identifies the visitor's shop session
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`POST /backend/shop-session: ${response.status}`);
  return (await response.json()) as SessionTokenGrant;
};
