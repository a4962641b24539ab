import docsDocument from "@entrada/openapi/docs-openapi.json" with { type: "json" };
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import { type RunningDocsServer, startDocsServer } from "../src/index.ts";

const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema(docsDocument as object, "docs");

/** Asserts that `value` fits the docs contract's schema `schema` (components/schemas). */
export function conforms(schema: string, value: unknown): void {
  const validate = ajv.getSchema(`docs#/components/schemas/${schema}`);
  if (!validate) throw new Error(`no schema ${schema}`);
  const ok = validate(value);
  expect(ok ? [] : validate.errors).toEqual([]);
}

/** The documentation server on a free port of 127.0.0.1 (real HTTP), with a generous rate limit. */
export function startDocs(): Promise<RunningDocsServer> {
  return startDocsServer({ port: 0, rateLimit: { limit: 100_000, windowSeconds: 60 } });
}

export const MCP_HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** POST one raw JSON-RPC body (object or text) to `/api/mcp`. */
export function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${url}/api/mcp`, {
    method: "POST",
    headers: { ...MCP_HEADERS, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** `tools/call` over raw JSON-RPC, checked against the contract's response schema. */
export async function callTool(
  url: string,
  name: string,
  args?: unknown,
  headers: Record<string, string> = {},
): Promise<ToolResult> {
  const res = await rpc(
    url,
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name, ...(args !== undefined ? { arguments: args } : {}) },
    },
    headers,
  );
  expect(res.status).toBe(200);
  const body = (await res.json()) as { result: ToolResult };
  conforms("ToolsCallResponse", body);
  return body.result;
}
