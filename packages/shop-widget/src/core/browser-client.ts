import { createClient, type EntradaClient } from "@entrada/sdk";
import type { SessionTokenSource } from "./session-token";

/**
 * The SDK client the widget uses in the browser: session-token auth only (never client credentials).
 * A 401 marks the token as rejected so the SDK's one renewal asks the host's backend for a fresh one;
 * a second 401 comes back as an error (reported as `session-expired`).
 */
export function createBrowserClient(
  baseUrl: string,
  tokens: SessionTokenSource,
  fetchImpl: typeof fetch | undefined,
): EntradaClient {
  const inner =
    fetchImpl ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  return createClient({
    baseUrl,
    sessionToken: () => tokens.get(),
    fetch: async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await inner(input, init);
      if (response.status === 401) {
        const header =
          (input instanceof Request ? input.headers.get("authorization") : null) ??
          new Headers(init?.headers).get("authorization");
        if (header?.startsWith("Bearer ")) tokens.reject(header.slice(7));
      }
      return response;
    },
  });
}
