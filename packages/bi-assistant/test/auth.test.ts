import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBiAssistant, startBiAssistant } from "../src/index.ts";
import { connect, type Feed, startFeed } from "./helpers.ts";

let feed: Feed;
let assistant: RunningBiAssistant;
let endpoint: string;

const LIST = { jsonrpc: "2.0", id: 1, method: "tools/list" };
const CALL = {
  jsonrpc: "2.0",
  id: 2,
  method: "tools/call",
  params: { name: "no_show_rate_per_event", arguments: {} },
};

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(endpoint, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: JSON.stringify(body),
  });
}

/** The parameters of a `WWW-Authenticate: Bearer k="v", …` challenge. */
function challenge(response: Response): Record<string, string> {
  const header = response.headers.get("www-authenticate") ?? "";
  expect(header).toMatch(/^Bearer /);
  return Object.fromEntries([...header.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
}

/** Nothing of the data: no event, ticket or gate id, no tool list, no feed error body. */
async function leaksNothing(response: Response): Promise<void> {
  const text = await response.text();
  expect(text).not.toMatch(/evt_|tkt_|gte_|scn_|list_datasets|innererror|log_/);
}

beforeAll(async () => {
  feed = await startFeed();
  assistant = await startBiAssistant({ apiUrl: feed.mock.url, port: 0, forwardHeaders: ["x-mock-session"] });
  endpoint = `${assistant.url}/mcp`;
});
afterAll(async () => {
  await assistant?.close();
  await feed?.mock.close();
});

describe("BI assistant: protected as the MCP authorization specification says", () => {
  it("no token: 401 with resource_metadata and scope, and the metadata names the token endpoint's server", async () => {
    for (const body of [LIST, CALL]) {
      const response = await post(body);
      expect(response.status).toBe(401);
      const params = challenge(response);
      expect(params.error).toBeUndefined();
      expect(params.scope).toBe("Shop");
      expect(params.resource_metadata).toBe(`${assistant.url}/.well-known/oauth-protected-resource/mcp`);
      await leaksNothing(response);
    }
    const metadata = await fetch(`${assistant.url}/.well-known/oauth-protected-resource/mcp`);
    expect(metadata.status).toBe(200);
    expect(await metadata.json()).toEqual({
      resource: endpoint,
      authorization_servers: [feed.mock.url],
      scopes_supported: ["Shop"],
      bearer_methods_supported: ["header"],
      resource_name: "Entrada BI assistant",
    });
    // GET on the endpoint is no way around it.
    expect((await fetch(endpoint)).status).toBe(401);
  });

  it("the official client without a token cannot connect", async () => {
    await expect(connect(endpoint)).rejects.toThrow(/401|Unauthorized/i);
  });

  it("a forged token: 401 invalid_token", async () => {
    const response = await post(LIST, { authorization: "Bearer forged.token.value" });
    expect(response.status).toBe(401);
    const params = challenge(response);
    expect(params.error).toBe("invalid_token");
    expect(params.resource_metadata).toContain("/.well-known/oauth-protected-resource/mcp");
    await leaksNothing(response);
    // Not a bearer token at all: 400 invalid_request (RFC 6750).
    const basic = await post(LIST, { authorization: `Basic ${btoa("entrada-demo:demo-secret")}` });
    expect(basic.status).toBe(400);
    expect(challenge(basic).error).toBe("invalid_request");
  });

  it("an expired token: 401 invalid_token (the feed's clock decides)", async () => {
    const session = "expiry";
    const token = await feed.token("Shop", session);
    expect((await post(LIST, { authorization: `Bearer ${token}`, "x-mock-session": session })).status).toBe(
      200,
    );
    const moved = await fetch(`${feed.mock.url}/__mock/clock`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-mock-session": session },
      body: JSON.stringify({ advanceSeconds: 7200 }),
    });
    expect(moved.status).toBe(200);
    const response = await post(CALL, { authorization: `Bearer ${token}`, "x-mock-session": session });
    expect(response.status).toBe(401);
    expect(challenge(response).error).toBe("invalid_token");
    await leaksNothing(response);
  });

  it("a token without the scope Shop: 403 insufficient_scope", async () => {
    const terp = await feed.token("TERP");
    const response = await post(CALL, { authorization: `Bearer ${terp}` });
    expect(response.status).toBe(403);
    const params = challenge(response);
    expect(params.error).toBe("insufficient_scope");
    expect(params.scope).toBe("Shop");
    await leaksNothing(response);
  });

  it("a valid token answers, statelessly: no session id, any request stands alone", async () => {
    const token = await feed.token("Shop");
    const response = await post(CALL, { authorization: `Bearer ${token}` });
    expect(response.status).toBe(200);
    expect(response.headers.get("mcp-session-id")).toBeNull();
    const body = (await response.json()) as { result: { structuredContent: { events: unknown[] } } };
    expect(body.result.structuredContent.events.length).toBeGreaterThan(0);
    const get = await fetch(endpoint, { headers: { authorization: `Bearer ${token}` } });
    expect(get.status).toBe(405);
  });
});
