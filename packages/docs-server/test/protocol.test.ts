import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROTOCOL_VERSIONS, type RunningDocsServer } from "../src/index.ts";
import { conforms, MCP_HEADERS, rpc, startDocs } from "./helpers.ts";

let docs: RunningDocsServer;
beforeAll(async () => {
  docs = await startDocs();
});
afterAll(() => docs.close());

describe("MCP over Streamable HTTP (raw JSON-RPC)", () => {
  it("answers initialize with the client's revision when served, else the newest, and issues no session", async () => {
    for (const version of ["2025-11-25", "2025-06-18", "2024-11-05", "1999-01-01"]) {
      const res = await rpc(docs.url, {
        jsonrpc: "2.0",
        id: "init",
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get("mcp-session-id")).toBeNull();
      const body = await res.json();
      conforms("InitializeResponse", body);
      expect(body.result.protocolVersion).toBe(version === "1999-01-01" ? PROTOCOL_VERSIONS[0] : version);
      expect(body.result.capabilities.tools).toEqual({ listChanged: false });
      expect(body.result.serverInfo.name).toBe("entrada-docs");
    }
    const note = await rpc(docs.url, { jsonrpc: "2.0", method: "notifications/initialized" });
    expect([note.status, await note.text()]).toEqual([202, ""]);
    const ping = await rpc(docs.url, { jsonrpc: "2.0", id: 7, method: "ping" });
    expect(await ping.json()).toEqual({ jsonrpc: "2.0", id: 7, result: {} });
    // A batch (revision 2025-03-26) gets the array of responses from the SDK transport.
    const batch = await rpc(docs.url, [
      { jsonrpc: "2.0", id: 8, method: "ping" },
      { jsonrpc: "2.0", id: 9, method: "ping" },
    ]);
    expect(await batch.json()).toEqual([
      { jsonrpc: "2.0", id: 8, result: {} },
      { jsonrpc: "2.0", id: 9, result: {} },
    ]);
  });

  it("serves the session-less era: tools/list and tools/call without a handshake, with or without a version header", async () => {
    const variants: Record<string, string>[] = [
      {},
      { "mcp-protocol-version": "2025-11-25" },
      { "mcp-protocol-version": "2025-03-26" },
    ];
    for (const headers of variants) {
      const res = await rpc(docs.url, { jsonrpc: "2.0", id: 2, method: "tools/list" }, headers);
      const body = await res.json();
      conforms("ToolsListResponse", body);
      expect(body.result.tools.map((t: { name: string }) => t.name)).toEqual([
        "search_docs",
        "list_modules",
        "list_endpoints",
        "get_endpoint",
        "get_guide",
        "about_bi_assistant_mcp",
      ]);
    }
  });

  it("answers one SSE message event when the client prefers text/event-stream", async () => {
    const res = await rpc(
      docs.url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_modules" } },
      { accept: "application/json;q=0.5, text/event-stream" },
    );
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const event = await res.text();
    expect(event).toMatch(/^event: message\ndata: \{.*\}\n\n$/s);
    const payload = JSON.parse(event.slice(event.indexOf("data: ") + 6));
    expect(payload.result.structuredContent.modules).toHaveLength(10);
  });

  it("rejects bad transport input with JSON-RPC errors, the right HTTP status and one English message", async () => {
    const cases: [Promise<Response>, number, number, RegExp][] = [
      [rpc(docs.url, "{not json"), 400, -32700, /^Parse error/],
      [rpc(docs.url, { id: 1, method: "ping" }), 400, -32700, /Invalid JSON-RPC message/],
      [
        rpc(docs.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-protocol-version": "2020-01-01" }),
        400,
        -32000,
        /Unsupported protocol version/,
      ],
      [
        rpc(docs.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { accept: "application/json" }),
        406,
        -32000,
        /Not Acceptable/,
      ],
      [
        rpc(docs.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { "content-type": "text/plain" }),
        415,
        -32000,
        /Unsupported Media Type/,
      ],
      [
        rpc(
          docs.url,
          `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"${"x".repeat(1024 * 1024)}"}}`,
        ),
        413,
        -32000,
        /too large/i,
      ],
      [rpc(docs.url, { jsonrpc: "2.0", id: 9, method: "resources/list" }), 200, -32601, /Method not found/],
      [
        rpc(docs.url, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "rm_rf" } }),
        200,
        -32602,
        /^Unknown tool rm_rf; available: search_docs, /,
      ],
    ];
    for (const [promise, status, code, message] of cases) {
      const res = await promise;
      const body = await res.json();
      expect([res.status, body.error?.code]).toEqual([status, code]);
      expect(body.error.message).toMatch(message);
      // The SDK's client prefixes "MCP error <code>:" itself; the server must not send it already.
      expect(body.error.message).not.toMatch(/MCP error/);
      expect(res.headers.get("x-log-id")).toMatch(/^log_[0-9A-Z]{26}$/);
      expect(res.headers.get("content-language")).toBe("en-GB");
    }
    for (const method of ["GET", "DELETE"]) {
      const res = await fetch(`${docs.url}/api/mcp`, { method, headers: MCP_HEADERS });
      expect([res.status, res.headers.get("allow")]).toEqual([405, "POST"]);
      expect((await res.json()).error.code).toBe(-32000);
    }
  });

  it("speaks English whatever Accept-Language asks (Node's fetch sends *; the documentation exists in English only)", async () => {
    for (const language of ["*", "de-CH", "fr-CH;q=0.9, *;q=0.1", "xx"]) {
      const res = await rpc(
        docs.url,
        {
          jsonrpc: "2.0",
          id: 4,
          method: "tools/call",
          params: { name: "list_endpoints", arguments: { module: "nope" } },
        },
        { "accept-language": language },
      );
      expect(res.headers.get("content-language")).toBe("en-GB");
      const text = (await res.json()).result.content[0].text as string;
      expect(text).toMatch(/^Invalid arguments for list_endpoints: `module` must be one of `token`, /);
      expect(text).not.toMatch(/Ungültig|Argumente|invalides|erwartet|non validi/);
    }
  });

  it("limits requests per client address with RateLimit headers and a 429 problem", async () => {
    const { startDocsServer } = await import("../src/index.ts");
    const small = await startDocsServer({ port: 0, rateLimit: { limit: 2, windowSeconds: 30 } });
    try {
      const first = await fetch(`${small.url}/ai/index.md`);
      expect(first.headers.get("ratelimit-remaining")).toBe("1");
      await fetch(`${small.url}/ai/index.md`);
      const limited = await fetch(`${small.url}/ai/index.md`);
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await limited.json()).type).toBe("https://docs.entrada.dev/problems/rate-limited");
    } finally {
      await small.close();
    }
  });
});
