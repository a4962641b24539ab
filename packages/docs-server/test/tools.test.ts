import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningDocsServer } from "../src/index.ts";
import { callTool, conforms, startDocs, type ToolResult } from "./helpers.ts";

let docs: RunningDocsServer;
let client: Client;
beforeAll(async () => {
  docs = await startDocs();
  client = new Client({ name: "official-sdk-client", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${docs.url}/api/mcp`)));
});
afterAll(async () => {
  await client.close();
  await docs.close();
});

/** Good calls: tool, arguments, result schema, and what the text and structured result must show. */
const GOOD: [string, Record<string, unknown>, string, (r: ToolResult) => void][] = [
  [
    "search_docs",
    { query: "verify webhook signature", limit: 5 },
    "SearchDocsResult",
    (r) => {
      const hits = r.structuredContent?.results as { id: string; score: number }[];
      expect(hits[0]).toMatchObject({ id: "webhooks#verifying-signatures", score: 1 });
      expect(hits.length).toBeLessThanOrEqual(5);
      expect(r.content[0]?.text).toContain("Verifying signatures");
    },
  ],
  [
    "list_modules",
    {},
    "ListModulesResult",
    (r) => {
      const modules = r.structuredContent?.modules as { name: string; endpointCount: number }[];
      expect(modules.find((m) => m.name === "shop")?.endpointCount).toBe(18); // with applyCartVoucher, removeCartVoucher
      expect(((r.structuredContent?.guides ?? []) as { name: string }[]).map((g) => g.name)).toEqual([
        "shop-front-end",
        "guidelines",
        "webhooks",
      ]);
    },
  ],
  [
    "list_endpoints",
    { module: "webhooks" },
    "ListEndpointsResult",
    (r) => {
      expect(r.structuredContent?.endpoints).toContainEqual(
        expect.objectContaining({ method: "WEBHOOK", path: "cart.completed" }),
      );
      expect(r.content[0]?.text).toContain(
        "| POST | `/webhooks/v1/subscriptions` | `createWebhookSubscription` |",
      );
    },
  ],
  [
    "get_endpoint",
    { endpoint: "checkoutCart" },
    "GetEndpointResult",
    (r) => {
      expect(r.structuredContent).toMatchObject({ method: "POST", path: "/shop/v1/cart/{id}/checkout" });
      expect(JSON.stringify(r.structuredContent)).not.toContain('"$ref"');
      const text = r.content[0]?.text ?? "";
      // Parameters, headers, request body and the contract's example responses, readable without structuredContent.
      expect(text).toContain("## Request headers");
      expect(text).toContain("| `Idempotency-Key` | no |");
      expect(text).toContain("## Request body (optional)");
      expect(text).toContain('"cardNumber": "4242424242424242"');
      expect(text).toContain("## Responses");
      expect(text).toMatch(
        /\*\*`402`\*\*[\s\S]*```json\n\{\n\s+"type": "https:\/\/docs\.entrada\.dev\/problems\//,
      );
      // The 200 example keeps its structure when shortened: arrays are cut, never its tail — the tickets'
      // Quicodes and links (what the service description names of the checkout answer) are there, and the JSON
      // block is whole.
      const ok = /\*\*`200`\*\*[\s\S]*?```json\n([\s\S]*?)\n```/.exec(text)?.[1] ?? "";
      const order = (JSON.parse(ok) as { order: Record<string, unknown> }).order;
      const tickets = order.tickets as Array<Record<string, unknown>>;
      expect(tickets[0]).toMatchObject({
        quicode: expect.stringMatching(/^Q1\./),
        ticketUrl: expect.stringContaining("signature="),
      });
      expect(order.receiptUrl).toEqual(expect.stringContaining("signature="));
    },
  ],
  [
    "get_guide",
    { guide: "shop-front-end", section: "content-security-policy" },
    "GetGuideResult",
    (r) => {
      expect(r.structuredContent).toMatchObject({
        guide: "shop-front-end",
        section: "content-security-policy",
      });
      expect(r.content[0]?.text).toMatch(/^## Content-Security-Policy\n[\s\S]*nonce/);
    },
  ],
  [
    "get_guide",
    { guide: "guidelines" },
    "GetGuideResult",
    (r) => {
      expect(r.content[0]?.text).toMatch(/^# Guidelines/);
      expect(((r.structuredContent?.sections ?? []) as { slug: string }[]).map((s) => s.slug)).toContain(
        "idempotency",
      );
    },
  ],
  [
    "about_bi_assistant_mcp",
    {},
    "AboutBiAssistantMcpResult",
    (r) => expect(r.structuredContent?.authentication).toMatch(/token/i),
  ],
];

/** Bad calls: tool, arguments, and what the isError text must say (what is wrong and what to send instead). */
const BAD: [string, unknown, RegExp][] = [
  [
    "list_endpoints",
    { module: "nope" },
    /`module` must be one of `token`, `shop`, .*; "nope" is not\. .*send, e\.g\., \{"module":"shop"\}/,
  ],
  ["search_docs", { query: "" }, /`query` must not be empty\. .*send, e\.g\., \{"query":/],
  ["search_docs", { query: "cart", limit: 1000 }, /`limit` must be between 1 and 50, not 1000\./],
  ["get_endpoint", { endpoint: 42 }, /`endpoint` must be a string, not 42\. .*\{"endpoint":"checkoutCart"\}/],
  ["get_endpoint", {}, /`endpoint` is required\./],
  [
    "list_modules",
    { extra: 1 },
    /`extra` is not an argument of list_modules\. list_modules takes no arguments: send \{\}\./,
  ],
  ["get_guide", { guide: "faq" }, /`guide` must be one of `shop-front-end`, `guidelines`, `webhooks`/],
  ["get_guide", { guide: "webhooks", section: "retry" }, /has no section `retry`\. Did you mean `retries`/],
  ["get_endpoint", { endpoint: "checkoutCard" }, /No endpoint `checkoutCard`\. Did you mean `checkoutCart`/],
  ["about_bi_assistant_mcp", { verbose: true }, /`verbose` is not an argument of about_bi_assistant_mcp/],
];

describe("every tool over raw JSON-RPC", () => {
  it.each(GOOD.map((g, i) => [`${g[0]} ${JSON.stringify(g[1])}`, i] as const))("good: %s", async (_, i) => {
    const [name, args, schema, check] = GOOD[i] as (typeof GOOD)[number];
    const result = await callTool(docs.url, name, args);
    expect(result.isError).toBe(false);
    conforms(schema, result.structuredContent);
    check(result);
  });

  it.each(BAD.map((b, i) => [`${b[0]} ${JSON.stringify(b[1])}`, i] as const))("bad: %s", async (_, i) => {
    const [name, args, message] = BAD[i] as (typeof BAD)[number];
    const result = await callTool(docs.url, name, args, { "accept-language": "*" });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]?.text).toMatch(message);
  });
});

describe("every tool through the official MCP TypeScript SDK client", () => {
  it("connects, negotiates the newest revision and lists the six tools with their schemas", async () => {
    expect(client.getServerVersion()?.name).toBe("entrada-docs");
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toHaveLength(6);
    expect(
      tools.every((t) => t.annotations?.readOnlyHint === true && t.outputSchema?.type === "object"),
    ).toBe(true);
  });

  it("calls every tool with good arguments (the client validates structuredContent against the outputSchema)", async () => {
    for (const [name, args, schema, check] of GOOD) {
      const result = (await client.callTool({ name, arguments: args })) as ToolResult;
      expect(result.isError).toBe(false);
      conforms(schema, result.structuredContent);
      check(result);
    }
  });

  it("gets bad arguments back as readable isError results, not as thrown protocol errors", async () => {
    for (const [name, args, message] of BAD) {
      const result = (await client.callTool({
        name,
        arguments: args as Record<string, unknown>,
      })) as ToolResult;
      expect(result.isError).toBe(true);
      expect(result.content[0]?.text).toMatch(message);
    }
  });

  it("reports an unknown tool as one protocol error with a single 'MCP error -32602:' prefix", async () => {
    const error = await client.callTool({ name: "rm_rf", arguments: {} }).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/^MCP error -32602: Unknown tool rm_rf; available: /);
    expect((error as Error).message.match(/MCP error/g)).toHaveLength(1);
  });
});
