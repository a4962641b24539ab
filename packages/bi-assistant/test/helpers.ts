import { type MockServer, type MockServerOptions, startMockServer } from "@entrada/mock-server/node";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export interface Feed {
  mock: MockServer;
  /** A client-credentials token of a demo client (`entrada-demo`), for `scope`. */
  token(scope?: string, session?: string): Promise<string>;
  /** GET a feed path (`/bi/v1/odata/…`) with a token; the parsed JSON. */
  odata<T = Record<string, unknown>>(path: string, token: string): Promise<T>;
}

/** The mock server on a free port with its default seeded BI history (1,500 orders), or the options' clock and seed. */
export async function startFeed(options: Pick<MockServerOptions, "now" | "seed"> = {}): Promise<Feed> {
  const mock = await startMockServer({ port: 0, webhooks: false, rateLimit: false, docs: false, ...options });
  return {
    mock,
    async token(scope = "Shop", session?: string) {
      const response = await fetch(`${mock.url}/connect/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
          "content-type": "application/x-www-form-urlencoded",
          ...(session ? { "x-mock-session": session } : {}),
        },
        body: `grant_type=client_credentials&scope=${scope}`,
      });
      if (!response.ok) throw new Error(`token: ${response.status}`);
      return ((await response.json()) as { access_token: string }).access_token;
    },
    async odata<T>(path: string, token: string): Promise<T> {
      const response = await fetch(path.startsWith("http") ? path : `${mock.url}${path}`, {
        headers: { authorization: `Bearer ${token}`, prefer: "odata.maxpagesize=5000" },
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return (await response.json()) as T;
    },
  };
}

/** The official MCP client, connected to `url` with a bearer token (or none). */
export async function connect(
  url: string,
  token?: string,
  headers: Record<string, string> = {},
): Promise<Client> {
  const client = new Client({ name: "bi-assistant-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } },
  });
  await client.connect(transport);
  return client;
}

export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}
