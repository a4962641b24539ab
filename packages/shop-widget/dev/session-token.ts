/**
 * The host's session-token function, as the dev pages write it: `{}` at start, `{ rejectedToken, sessionId }` after a
 * 401; the host backend (`POST /backend/shop-session`) creates or renews the visitor's shop session.
 */
export async function fetchDevSessionToken(request: {
  rejectedToken?: string;
  sessionId?: string;
}): Promise<{ sessionToken: string; sessionId: string }> {
  const response = await fetch("/backend/shop-session", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  if (!response.ok) throw new Error(`shop session: HTTP ${response.status}`);
  return (await response.json()) as { sessionToken: string; sessionId: string };
}
