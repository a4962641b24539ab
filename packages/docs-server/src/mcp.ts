import docsDocument from "@entrada/openapi/docs-openapi.json" with { type: "json" };
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { ArgumentChecker } from "./arguments.ts";
import { dereference } from "./content.ts";
import { TOOLS, type ToolContext } from "./tools.ts";

type Obj = Record<string, unknown>;

/** MCP revisions served, newest first (the SDK's list): `initialize` answers the client's when listed, else the newest. */
export const PROTOCOL_VERSIONS: readonly string[] = [...SUPPORTED_PROTOCOL_VERSIONS];
export const SERVER_INFO = { name: "entrada-docs", title: "Entrada documentation", version: "1.0.0" };
export const INSTRUCTIONS =
  "Read-only documentation of the Entrada API (ticket sales, entrance, marketing activation). Start with list_modules or search_docs; get_endpoint gives the full contract of one operation with examples; get_guide returns the shop front-end guide, the Guidelines and the Webhooks guide. No customer data is available here.";
/** Largest JSON-RPC message accepted (the transport answers 413 above it). */
export const MAX_MESSAGE_BYTES = 1024 * 1024;

/** Drop OpenAPI-only keywords so the schemas are plain JSON Schema for MCP clients. */
function stripOpenApi(value: unknown): Obj {
  if (Array.isArray(value)) return value.map(stripOpenApi) as unknown as Obj;
  if (value === null || typeof value !== "object") return value as Obj;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) {
    if (k.startsWith("x-") || k === "example" || k === "examples") continue;
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Obj).map(([p, s]) => [p, stripOpenApi(s)]))
        : stripOpenApi(v);
  }
  if (out.type === "object" && !("properties" in out) && out.additionalProperties === false)
    out.properties = {};
  return out;
}

/** The tools as the MCP `Tool` objects of tools/list and the server card (schemas from the contract). */
export function toolList(): Obj[] {
  const schemas = (docsDocument as { components: { schemas: Obj } }).components.schemas;
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: stripOpenApi(dereference(docsDocument, schemas[tool.inputSchema] ?? { type: "object" })),
    outputSchema: stripOpenApi(dereference(docsDocument, schemas[tool.outputSchema] ?? { type: "object" })),
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  }));
}

/** A JSON-RPC error the SDK sends as `{code, message}` without wrapping the message in "MCP error …:" again. */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The MCP endpoint: per request, a fresh SDK `Server` on the SDK's web-standard Streamable HTTP transport in
 * stateless mode (no `Mcp-Session-Id`), so any replica answers any request and both protocol eras work: clients
 * that run the `initialize` handshake and clients that call `tools/list` or `tools/call` directly.
 */
export function createMcpEndpoint(context: (docsUrl: string) => ToolContext) {
  const tools = toolList();
  const checkers = new Map(
    TOOLS.map((t) => [
      t.name,
      new ArgumentChecker(
        t.name,
        (tools.find((x) => x.name === t.name) as Obj).inputSchema as Obj,
        t.example,
      ),
    ]),
  );

  function server(docsUrl: string): Server {
    const mcp = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
    });
    mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools as never }));
    mcp.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      const tool = TOOLS.find((t) => t.name === name);
      // An unknown tool is a protocol error (the model cannot fix it by changing arguments).
      if (!tool)
        throw new RpcError(
          ErrorCode.InvalidParams,
          `Unknown tool ${name}; available: ${TOOLS.map((t) => t.name).join(", ")}.`,
        );
      const args = request.params.arguments ?? {};
      // Input validation failures are tool results with isError (MCP 2025-11-25), so the model reads and corrects.
      const problem = (checkers.get(tool.name) as ArgumentChecker).check(args);
      if (problem) return { content: [{ type: "text", text: problem }], isError: true };
      const outcome = tool.run(context(docsUrl), args as Obj);
      return outcome.ok
        ? {
            content: [{ type: "text", text: outcome.markdown }],
            structuredContent: outcome.structured,
            isError: false,
          }
        : { content: [{ type: "text", text: outcome.markdown }], isError: true };
    });
    return mcp;
  }

  /** Answer one HTTP request to `/api/mcp` (the body is read whole; SSE answers hold one event and close). */
  return async function handle(request: Request, docsUrl: string): Promise<Response> {
    const mcp = server(docsUrl);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: !prefersEventStream(request.headers.get("accept")),
      maxRequestBodySize: MAX_MESSAGE_BYTES,
    });
    await mcp.connect(transport);
    try {
      const response = await transport.handleRequest(request);
      const body = response.status === 202 || response.body === null ? null : await response.text();
      return new Response(body, { status: response.status, headers: response.headers });
    } finally {
      await mcp.close();
    }
  };
}

/** True when `Accept` gives `text/event-stream` a higher q-value than `application/json`. */
function prefersEventStream(accept: string | null): boolean {
  let json = 0;
  let sse = 0;
  for (const part of (accept ?? "").split(",")) {
    const [type = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
    const value = q === undefined ? 1 : Number(q);
    const t = type.trim().toLowerCase();
    if (t === "application/json") json = Math.max(json, value);
    if (t === "text/event-stream") sse = Math.max(sse, value);
  }
  return sse > json;
}
