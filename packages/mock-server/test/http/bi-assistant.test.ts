import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, bearer, startApi } from "../helpers.ts";

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

type ToolResult = { structuredContent?: Record<string, unknown>; isError?: boolean };

it("mounts @entrada/bi-assistant at /bi/mcp: linked from /, named by about_bi_assistant_mcp, discoverable", async () => {
  const root = await api.fetch("/", { headers: { accept: "application/json" } });
  expect((await root.json()).links.biAssistant).toBe(`${api.url}/bi/mcp`);
  const about = await api.fetch("/api/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    json: {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "about_bi_assistant_mcp", arguments: {} },
    },
  });
  expect((await about.json()).result.structuredContent.localEndpoint).toBe(`${api.url}/bi/mcp`);
  // Unauthenticated: 401 pointing at the resource metadata, which names this server as the authorization server,
  // whose metadata names /connect/token.
  const denied = await api.fetch("/bi/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(denied.status).toBe(401);
  const metadataUrl = /resource_metadata="([^"]+)"/.exec(denied.headers.get("www-authenticate") ?? "")?.[1];
  expect(metadataUrl).toBe(`${api.url}/.well-known/oauth-protected-resource/bi/mcp`);
  const metadata = await (await fetch(metadataUrl as string)).json();
  expect(metadata.authorization_servers).toEqual([api.url]);
  const server = await (await api.fetch("/.well-known/oauth-authorization-server")).json();
  expect(server).toMatchObject({ issuer: api.url, token_endpoint: `${api.url}/connect/token` });
});

it("answers from the caller's mock session, with the caller's token, the same figures the feed gives", async () => {
  const session = "bi-assistant-mount";
  // Tokens belong to a session: this one is issued in the session the assistant is then called with.
  const token = await api.token("Shop", undefined, session);
  const elsewhere = await api.fetch("/bi/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream", ...bearer(token) },
    json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(elsewhere.status).toBe(401);
  // The official MCP client is the BI assistant package's own test; here, one JSON-RPC call over HTTP.
  const answer = await api.fetch("/bi/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream", ...bearer(token), "x-mock-session": session },
    json: {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "no_show_rate_per_event", arguments: {} },
    },
  });
  expect(answer.status).toBe(200);
  const result = (await answer.json()).result as ToolResult;
  {
    expect(result.isError).toBe(false);
    const { events, request } = result.structuredContent as {
      events: { eventId: string; tickets: number; admitted: number }[];
      request: string;
    };
    expect(request.startsWith(`${api.url}/bi/v1/odata/Tickets?$apply=`)).toBe(true);
    const first = events[0] as { eventId: string; tickets: number; admitted: number };
    const direct = await api.fetch(
      `/bi/v1/odata/Tickets?$filter=${encodeURIComponent(`Status eq 'used' and EventId eq '${first.eventId}'`)}&$count=true&$top=0`,
      { headers: { ...bearer(token), "x-mock-session": session } },
    );
    expect((await direct.json())["@odata.count"]).toBe(first.admitted);
  }
});
