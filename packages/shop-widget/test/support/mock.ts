import { createMock, type EntradaMsw } from "@entrada/mock-server/msw";
import { createClient } from "@entrada/sdk";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll } from "vitest";

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
  let current: string | undefined;
  /**
   * The host backend's endpoint: one shop session per visitor (kept across reloads and payment redirects),
   * replaced when the widget reports it rejected.
   */
  const fetchSessionToken = async ({ rejectedToken }: { rejectedToken?: string } = {}): Promise<string> => {
    if (current === undefined || current === rejectedToken) {
      created += 1;
      const { data } = await backend.sessions.create.orThrow({});
      current = data.sessionToken;
    }
    return current;
  };
  afterEach(() => {
    current = undefined;
    created = 0;
  });

  return {
    mock,
    server,
    fetchSessionToken,
    backend,
    /** How many session tokens the widget asked for. */
    sessionsCreated: () => created,
    /** Forget the visitor's session (a new visitor). */
    newVisitor: () => {
      current = undefined;
    },
  };
}
