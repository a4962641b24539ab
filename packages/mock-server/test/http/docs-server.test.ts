import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, startApi } from "../helpers.ts";

let api: Api;
beforeAll(async () => {
  api = await startApi();
});
afterAll(() => api.close());

it("mounts @entrada/docs-server beside the API: MCP tools, server card, Markdown mirrors, the reference at /", async () => {
  const rpc = await api.fetch("/api/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    json: { jsonrpc: "2.0", id: 1, method: "tools/list" },
  });
  expect(rpc.status).toBe(200);
  const list = await rpc.json();
  expect(list.result.tools.map((t: { name: string }) => t.name).sort()).toEqual(
    [
      "about_bi_assistant_mcp",
      "get_endpoint",
      "get_guide",
      "list_endpoints",
      "list_modules",
      "search_docs",
    ].sort(),
  );
  const call = await api.fetch("/api/mcp", {
    method: "POST",
    headers: { accept: "application/json, text/event-stream" },
    json: {
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "search_docs", arguments: { query: "checkout" } },
    },
  });
  expect(JSON.stringify(await call.json())).toContain("checkoutCart");
  const card = await api.fetch("/.well-known/mcp/server-card.json");
  expect((await card.json()).transport.endpoint).toBe("/api/mcp");
  const mirror = await api.fetch("/ai/index.md");
  expect(mirror.status).toBe(200);
  // A browser opening the mock's address (or /docs) is sent to the HTML reference; a program gets the map,
  // which names the mock's developer controls too.
  for (const path of ["/", "/docs"]) {
    const page = await api.fetch(path, { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } });
    expect([page.status, page.headers.get("location")]).toEqual([302, `${api.url}/reference`]);
  }
  const root = await api.fetch("/", { headers: { accept: "application/json" } });
  expect((await root.json()).links).toMatchObject({
    reference: `${api.url}/reference`,
    mcp: `${api.url}/api/mcp`,
    mockControls: `${api.url}/__mock`,
  });
  const referenceDocument = await api.fetch("/reference/openapi.json");
  expect((await referenceDocument.json())["x-tagGroups"][0].tags).toEqual([
    "guide-shop-front-end",
    "guide-guidelines",
    "guide-webhooks",
  ]);
  // The reference's start script pre-fills this mock's demo client (all scopes), so "Send" works at once; its
  // token comes from this mock's own token endpoint.
  const start = await (await api.fetch("/reference/start.js")).text();
  expect(start).toContain(
    '{"clientId":"entrada-demo","clientSecret":"demo-secret","scopes":["Shop","TERP"]}',
  );
  // The API itself is unaffected.
  expect((await api.fetch("/shop/v1/discovery/venues")).status).toBe(401);
});

it("answers from the API a docs-like path the docs server does not serve (a dot segment)", async () => {
  // `/ai/…` is the docs' prefix, but the path resolves elsewhere: the docs server declines, the API refuses it.
  const status = await new Promise<number>((resolve, reject) => {
    const url = new URL(api.url);
    request({ host: url.hostname, port: url.port, path: "/ai/../shop/v1/discovery/events" }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on("error", reject)
      .end();
  });
  expect(status).toBe(400);
});
