import type { EntradaClient, SessionTokenGrant, TokenRequest } from "@entrada/sdk";

interface VisitorSession {
  sessionToken: string;
  sessionId: string;
}

/**
 * The host's backend endpoint `POST /backend/shop-session` (server side: it holds the API client's credentials).
 * One shop session per visitor, so a reload or a return from a payment page sees the same cart; when the browser
 * reports its token rejected (expired), the visitor's session is **renewed** — a new session could not see the
 * cart. The browser's `sessionId` is only a hint: the backend renews the session it stored for that visitor.
 */
export function shopSessionEndpoint(entrada: EntradaClient, options: { allowedOrigins?: string[] } = {}) {
  const visitors = new Map<string, VisitorSession>();
  const body = options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {};
  return async function handle(visitorId: string, request: TokenRequest): Promise<SessionTokenGrant> {
    let visitor = visitors.get(visitorId);
    if (!visitor) {
      const { data } = await entrada.sessions.create.orThrow(body);
      visitor = { sessionToken: data.sessionToken, sessionId: data.sessionId };
    } else if (request.rejectedToken === visitor.sessionToken) {
      if (request.sessionId !== undefined && request.sessionId !== visitor.sessionId) {
        throw new Error("the browser named another session than this visitor's");
      }
      // Same session, new token (a session forgotten by the API, 404, becomes a new one with `body`).
      const { data } = await entrada.sessions.renew.orThrow(visitor.sessionId, body);
      visitor = { sessionToken: data.sessionToken, sessionId: data.sessionId };
    }
    // Otherwise another tab already renewed: its current token.
    visitors.set(visitorId, visitor);
    return visitor;
  };
}
