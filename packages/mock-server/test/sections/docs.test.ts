import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import docsDocument from "@entrada/openapi/docs-openapi.json" with { type: "json" };
import apiDocument from "@entrada/openapi/openapi.json" with { type: "json" };
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { MockRequest, MockResponse } from "../../src/core/types.ts";
import { createDocsServer, loadGuides, PROTOCOL_VERSIONS } from "../../src/sections/docs/index.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(docsDocument as object, "docs");
// The bundle drops the tool result schemas (unreferenced); validate those against the contract's YAML source.
const openapiDir = dirname(createRequire(import.meta.url).resolve("@entrada/openapi/package.json"));
const { parse } = createRequire(join(openapiDir, "package.json"))("yaml") as { parse(text: string): unknown };
ajv.addSchema(
  parse(readFileSync(join(openapiDir, "src/docs/components.yaml"), "utf8")) as object,
  "docs-source",
);
function conforms(schema: string, value: unknown): void {
  const bundled = (docsDocument as { components: { schemas: Record<string, unknown> } }).components.schemas[
    schema
  ];
  const validate = ajv.getSchema(
    bundled ? `docs#/components/schemas/${schema}` : `docs-source#/schemas/${schema}`,
  );
  if (!validate) throw new Error(`no schema ${schema}`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors).toEqual([]);
}

const BASE = "http://127.0.0.1:4020";
const requireHere = createRequire(import.meta.url);
const guides = loadGuides((pkg, path) => {
  try {
    return readFileSync(join(dirname(requireHere.resolve(`${pkg}/package.json`)), path), "utf8");
  } catch {
    return null;
  }
});
const docs = createDocsServer({
  document: apiDocument,
  guides,
  rateLimit: { limit: 1000, windowSeconds: 60 },
});

function post(body: unknown, headers: Record<string, string> = {}): Promise<MockResponse | null> {
  const request: MockRequest = {
    method: "POST",
    url: `${BASE}/api/mcp`,
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body)),
  };
  return docs.handle(request);
}

function get(path: string, headers: Record<string, string> = {}): Promise<MockResponse | null> {
  return docs.handle({ method: "GET", url: `${BASE}${path}`, headers, body: null });
}

/** A JSON-RPC 2.0 response as the tests read it (the shapes themselves are checked with `conforms`). */
interface RpcResponse<R = Record<string, unknown>> {
  jsonrpc: "2.0";
  id?: number | string | null;
  result: R;
  error?: { code: number; message: string; data?: unknown };
}

const json = <R = Record<string, unknown>>(res: MockResponse | null) =>
  JSON.parse(String(res?.body)) as RpcResponse<R>;

async function call(name: string, args?: Record<string, unknown>, id = 1) {
  const res = await post({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, ...(args ? { arguments: args } : {}) },
  });
  expect(res?.status).toBe(200);
  const body = json(res);
  conforms("ToolsCallResponse", body);
  return body.result as {
    content: { type: string; text: string }[];
    structuredContent?: Record<string, unknown>;
    isError: boolean;
  };
}

describe("docs: MCP protocol", () => {
  it("answers initialize with a supported revision, tools capability and server info, statelessly", async () => {
    for (const version of ["2025-06-18", "2024-11-05", "1999-01-01"]) {
      const res = await post({
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "test", version: "1" } },
      });
      expect(res?.status).toBe(200);
      expect(res?.headers["mcp-session-id"]).toBeUndefined();
      const body = json<{
        protocolVersion: string;
        capabilities: { tools: unknown };
        serverInfo: { name: string };
      }>(res);
      conforms("InitializeResponse", body);
      expect(body.result.protocolVersion).toBe(version === "1999-01-01" ? PROTOCOL_VERSIONS[0] : version);
      expect(body.result.capabilities.tools).toEqual({ listChanged: false });
      expect(body.result.serverInfo.name).toBe("entrada-docs");
    }
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note?.status).toBe(202);
    expect(note?.body).toBeNull();
    const ping = await post({ jsonrpc: "2.0", id: 7, method: "ping" });
    expect(json(ping)).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
  });

  it("lists the six tools with input and output schemas and read-only annotations", async () => {
    const body = json(await post({ jsonrpc: "2.0", id: 2, method: "tools/list" }));
    conforms("ToolsListResponse", body);
    const tools = body.result.tools as {
      name: string;
      inputSchema: Record<string, unknown>;
      annotations: Record<string, boolean>;
    }[];
    expect(tools.map((t) => t.name)).toEqual([
      "search_docs",
      "list_modules",
      "list_endpoints",
      "get_endpoint",
      "get_guide",
      "about_bi_assistant_mcp",
    ]);
    expect(tools[0]?.inputSchema).toMatchObject({
      type: "object",
      required: ["query"],
      properties: { query: { type: "string" } },
    });
    expect(tools.every((t) => t.annotations.readOnlyHint === true)).toBe(true);
  });

  it("serves tools/call without a handshake and answers SSE when preferred", async () => {
    const res = await post(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_modules" } },
      { accept: "application/json;q=0.5, text/event-stream", "mcp-protocol-version": "2025-03-26" },
    );
    expect(res?.headers["content-type"]).toBe("text/event-stream");
    const event = String(res?.body);
    expect(event).toMatch(/^event: message\ndata: \{.*\}\n\n$/s);
    const payload = JSON.parse(event.slice(event.indexOf("data: ") + 6));
    expect(payload.result.structuredContent.modules).toHaveLength(10);
  });

  it("rejects bad transport input with JSON-RPC errors and the right HTTP status", async () => {
    const cases: [Promise<MockResponse | null>, number, number][] = [
      [post("{not json"), 400, -32700],
      [post([{ jsonrpc: "2.0", id: 1, method: "ping" }]), 400, -32600],
      [post({ id: 1, method: "ping" }), 400, -32600],
      [
        post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "2020-01-01" }),
        400,
        -32600,
      ],
      [post({ jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json" }), 406, -32000],
      [post({ jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "text/plain" }), 415, -32000],
      [
        post(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(1024 * 1024)}"}}`),
        413,
        -32000,
      ],
      [post({ jsonrpc: "2.0", id: 9, method: "resources/list" }), 200, -32601],
      [post({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "rm_rf" } }), 200, -32602],
      [
        post({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "search_docs", arguments: { query: "" } },
        }),
        200,
        -32602,
      ],
      [
        post({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "list_endpoints", arguments: { module: "nope" } },
        }),
        200,
        -32602,
      ],
      [
        post({
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { name: "list_modules", arguments: { extra: 1 } },
        }),
        200,
        -32602,
      ],
    ];
    for (const [promise, status, code] of cases) {
      const res = await promise;
      const body = json(res);
      expect([res?.status, body.error?.code]).toEqual([status, code]);
      conforms("JsonRpcError", body);
      expect(res?.headers["x-log-id"]).toMatch(/^log_/);
    }
    const wrongMethod = await docs.handle({ method: "GET", url: `${BASE}/api/mcp`, headers: {}, body: null });
    expect([wrongMethod?.status, wrongMethod?.headers.allow]).toEqual([405, "POST"]);
    const localized = json(await post("{", { "accept-language": "fr-CH" }));
    expect(localized.error?.message).toBe("Le corps n'est pas du JSON valide.");
  });
});

describe("docs: tools", () => {
  it("search_docs ranks endpoints and guide sections for a question", async () => {
    const result = await call("search_docs", { query: "verify webhook signature", limit: 5 });
    conforms("SearchDocsResult", result.structuredContent);
    const hits = result.structuredContent?.results as {
      kind: string;
      id: string;
      score: number;
      link: string;
    }[];
    expect(hits[0]).toMatchObject({ kind: "guide", id: "webhooks#verifying-signatures", score: 1 });
    expect(hits.length).toBeLessThanOrEqual(5);
    expect(hits.every((h, i) => i === 0 || (hits[i - 1] as { score: number }).score >= h.score)).toBe(true);
    const checkout = await call("search_docs", { query: "checkout cart" });
    expect((checkout.structuredContent?.results as { id: string }[] | undefined)?.[0]?.id).toBe(
      "checkoutCart",
    );
    const none = await call("search_docs", { query: "zzqxv" });
    expect(none.structuredContent?.results).toEqual([]);
  });

  it("list_modules and list_endpoints describe the contract, webhook events included", async () => {
    const modules = await call("list_modules");
    conforms("ListModulesResult", modules.structuredContent);
    const all = modules.structuredContent?.modules as {
      name: string;
      direction: string;
      endpointCount: number;
      links: { markdown: string };
    }[];
    expect(all.find((m) => m.name === "shop")).toMatchObject({
      direction: "inbound",
      endpointCount: 16,
      links: { markdown: `${BASE}/ai/module-shop.md` },
    });
    expect(all.find((m) => m.name === "webhooks")).toMatchObject({
      direction: "outbound",
      endpointCount: 40,
    });
    const bi = await call("list_endpoints", { module: "bi" });
    conforms("ListEndpointsResult", bi.structuredContent);
    expect(
      ((bi.structuredContent?.endpoints ?? []) as { operationId: string }[]).map((e) => e.operationId),
    ).toContain("listBiOrders");
    const hooks = await call("list_endpoints", { module: "webhooks" });
    expect(hooks.structuredContent?.endpoints).toContainEqual(
      expect.objectContaining({ method: "WEBHOOK", path: "cart.completed" }),
    );
  });

  it("get_endpoint returns the full dereferenced contract by operationId or METHOD /path, or suggestions", async () => {
    const byId = await call("get_endpoint", { endpoint: "checkoutCart" });
    conforms("GetEndpointResult", byId.structuredContent);
    const ep = byId.structuredContent as Record<string, unknown> & { responses: Record<string, unknown> };
    expect(ep).toMatchObject({
      method: "POST",
      path: "/shop/v1/cart/{id}/checkout",
      module: "shop",
      security: ["oauth2 (Shop)", "sessionToken"],
    });
    expect(ep.parameters).toContainEqual(expect.objectContaining({ name: "id", in: "path", required: true }));
    expect(ep.parameters).toContainEqual(expect.objectContaining({ name: "Idempotency-Key", in: "header" }));
    expect(JSON.stringify(ep)).not.toContain('"$ref"');
    expect(Object.keys(ep.responses)).toEqual(expect.arrayContaining(["200", "202", "402", "409"]));
    expect(byId.content[0]?.text).toContain("# POST /shop/v1/cart/{id}/checkout");
    const byPath = await call("get_endpoint", { endpoint: "post /shop/v1/cart/{cartId}/checkout" });
    expect(byPath.structuredContent?.operationId).toBe("checkoutCart");
    const miss = await call("get_endpoint", { endpoint: "checkoutCard" });
    expect(miss.isError).toBe(true);
    expect(miss.structuredContent).toBeUndefined();
    expect(miss.content[0]?.text).toContain("`checkoutCart`");
  });

  it("get_guide returns a guide whole or by section, with suggestions for a wrong slug", async () => {
    const whole = await call("get_guide", { guide: "webhooks" });
    conforms("GetGuideResult", whole.structuredContent);
    const sections = whole.structuredContent?.sections as { slug: string }[];
    expect(sections.map((s) => s.slug)).toContain("verifying-signatures");
    expect(whole.structuredContent?.markdown).toMatch(/^# Webhooks/);
    const one = await call("get_guide", { guide: "guidelines", section: "idempotency" });
    expect(one.structuredContent).toMatchObject({
      section: "idempotency",
      link: `${BASE}/ai/guide-guidelines.md#idempotency`,
    });
    expect(one.structuredContent?.markdown).toMatch(/^## Idempotency/);
    const wrong = await call("get_guide", { guide: "webhooks", section: "retry" });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0]?.text).toContain("`retries`");
  });

  it("about_bi_assistant_mcp explains the separate, credential-protected server", async () => {
    const about = await call("about_bi_assistant_mcp");
    conforms("AboutBiAssistantMcpResult", about.structuredContent);
    expect(about.structuredContent?.authentication).toMatch(/token/i);
  });
});

describe("docs: server card and Markdown mirrors", () => {
  it("publishes a server card that lists the same tools", async () => {
    const res = await get("/.well-known/mcp/server-card.json");
    const card = JSON.parse(String(res?.body)) as Record<string, unknown>;
    conforms("ServerCard", card);
    expect(card.transport).toEqual({ type: "streamable-http", endpoint: "/api/mcp", stateless: true });
    expect(card.authentication).toEqual({ required: false });
    expect((card.tools as { name: string }[]).map((t) => t.name)).toHaveLength(6);
  });

  it("mirrors the index, modules and guides as Markdown with ETags", async () => {
    const index = await get("/ai/index.md");
    expect(index?.headers["content-type"]).toBe("text/markdown; charset=utf-8");
    expect(String(index?.body)).toContain(`${BASE}/ai/module-external-entrance.md`);
    const module = await get("/ai/module-external-entrance.md");
    expect(String(module?.body)).toContain("POST /external-entrance/v1/imports");
    const guide = await get("/ai/guide-guidelines.md");
    expect(String(guide?.body)).toMatch(/^# Guidelines/);
    const again = await get("/ai/guide-guidelines.md", { "if-none-match": guide?.headers.etag as string });
    expect(again?.status).toBe(304);
    const missing = await get("/ai/module-nope.md");
    expect(missing?.status).toBe(404);
    expect(missing?.headers["content-type"]).toBe("application/problem+json");
    expect(await get("/shop/v1/cart")).toBeNull();
  });

  it("limits requests per address with RateLimit headers and 429", async () => {
    let t = 0;
    const small = createDocsServer({
      document: apiDocument,
      guides: {},
      rateLimit: { limit: 2, windowSeconds: 10 },
      now: () => t,
    });
    const hit = () =>
      small.handle({ method: "GET", url: `${BASE}/ai/index.md`, headers: {}, body: null }, "10.0.0.1");
    expect((await hit())?.headers["ratelimit-remaining"]).toBe("1");
    await hit();
    const limited = await hit();
    expect([limited?.status, limited?.headers["retry-after"]]).toEqual([429, "10"]);
    t = 10_000;
    expect((await hit())?.status).toBe(200);
  });
});
