import { createMock, type EntradaMsw } from "@entrada/mock-server/msw";
import { createClient } from "@entrada/sdk";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { SessionTokenGrant, SessionTokenRequest } from "../../src/index";

export const API = "https://api.entrada.test";

/**
 * The mock server's msw handlers for a test file (one engine per file, reset to its seed after every test);
 * unhandled requests fail the test.
 */
export function setupMockApi(options: Parameters<typeof createMock>[0] = { baseUrl: API }) {
  const mock: EntradaMsw = createMock({ validateResponses: "strict", ...options });
  const server = setupServer(...mock.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
  afterEach(() => {
    server.resetHandlers();
    mock.reset();
  });
  afterAll(() => server.close());

  /**
   * The host page's backend: creates a shop session token server-to-server with the SDK and client
   * credentials (which never reach the widget).
   */
  const backend = createClient({
    baseUrl: mock.baseUrl,
    clientId: "entrada-shop",
    clientSecret: "shop-secret",
    scope: "Shop",
    // This test process plays the host's server; the DOM is jsdom's.
    allowBrowserSecrets: true,
  });
  let created = 0;
  let current: { sessionToken: string; sessionId: string } | undefined;
  const sessions: Array<{ sessionId: string; renewed: boolean }> = [];
  /**
   * The host backend's endpoint: one shop session per visitor (kept across reloads and payment redirects).
   * When the widget reports its token rejected, the backend renews the visitor's shop session (`sessionId`)
   * so the cart stays visible — only the session it stored for this visitor, since session ids are not secrets.
   */
  const fetchSessionToken = async ({
    rejectedToken,
    sessionId,
  }: SessionTokenRequest = {}): Promise<SessionTokenGrant> => {
    if (current === undefined || current.sessionToken === rejectedToken) {
      created += 1;
      const renew = current !== undefined && sessionId === current.sessionId;
      const { data } = await backend.sessions.create.orThrow(renew ? { sessionId } : {});
      sessions.push({ sessionId: data.sessionId, renewed: renew });
      current = { sessionToken: data.sessionToken, sessionId: data.sessionId };
    }
    return current;
  };
  afterEach(() => {
    current = undefined;
    created = 0;
    sessions.length = 0;
  });

  return {
    mock,
    server,
    fetchSessionToken,
    backend,
    /** How many session tokens the widget asked for. */
    sessionsCreated: () => created,
    /** Every session token the backend obtained: its shop session and whether it renewed one. */
    sessions: () => [...sessions],
    /** The visitor's current session token. */
    currentToken: () => current?.sessionToken,
    /** Forget the visitor's session (a new visitor). */
    newVisitor: () => {
      current = undefined;
    },
  };
}
