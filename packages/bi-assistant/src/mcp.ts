import { isEntradaError } from "@entrada/sdk";
import { ODataError } from "@entrada/sdk/bi";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { ArgumentProblem, checkArguments } from "./arguments.ts";
import { findEvents } from "./find-events.ts";
import { QUESTION_TOOLS } from "./questions/index.ts";
import type { Obj, Tool, ToolContext } from "./tool.ts";
import { GENERIC_TOOLS } from "./tools.ts";

export const TOOLS: readonly Tool[] = [...GENERIC_TOOLS, findEvents, ...QUESTION_TOOLS];
export const SERVER_INFO = { name: "entrada-bi-assistant", title: "Entrada BI assistant", version: "1.0.0" };
export const INSTRUCTIONS =
  "Answers questions about your own ticketing, payment and entrance data from the Entrada BI feed, with your token's data scope. Ready answers: sales_per_event_and_day, no_show_rate_per_event, peak_entry_times_per_gate; they take the event by name (`event`) and read days and hours in the venue's time zone (`timeZone` for another). find_events looks events up by name, venue or date. Otherwise list_datasets and describe_dataset show the data, aggregate computes totals and breakdowns on the feed, query_rows pages through rows. Every answer carries the OData request it ran (`request`) to re-run it.";
/** Largest JSON-RPC message accepted (the transport answers 413 above it). */
export const MAX_MESSAGE_BYTES = 256 * 1024;

/** The tools as `tools/list` shows them. */
export function toolList(): Obj[] {
  return TOOLS.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
    outputSchema: t.outputSchema,
    annotations: { title: t.title, readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  }));
}

/** A failure while answering, as the text of an `isError` result: what was wrong and how to fix it. */
function problemText(error: unknown): string | null {
  if (error instanceof ArgumentProblem) return error.message;
  if (error instanceof TypeError && /literal|property|integer/.test(error.message)) return error.message;
  if (error instanceof ODataError) {
    const part = error.target ? ` (the part: ${error.target})` : "";
    const details = error.details.map((d) => d.message).join(" ");
    const fix =
      error.status === 400
        ? " Fix that part of the arguments and call again."
        : error.status === 501
          ? " The feed does not offer this; rephrase with the supported functions."
          : error.status === 401 || error.status === 403
            ? " Get a new token from the authorization server (client credentials, scope Shop) and call again."
            : "";
    return `The BI feed refused the request${part}: ${error.detail}${details ? ` ${details}` : ""}${fix} Request: ${error.url ?? ""}`;
  }
  if (isEntradaError(error))
    return `The BI feed could not be reached or answered ${error.status ?? "nothing"} (${error.kind}): ${error.message}. Try again later.`;
  return null;
}

/**
 * One MCP server per HTTP request (stateless, no `Mcp-Session-Id`) on the SDK's web-standard Streamable HTTP
 * transport; its tools run against the feed with the caller's token.
 */
export async function answerMcp(request: Request, context: ToolContext): Promise<Response> {
  const tools = toolList();
  const mcp = new Server(SERVER_INFO, {
    capabilities: { tools: { listChanged: false } },
    instructions: INSTRUCTIONS,
  });
  mcp.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools as never }));
  mcp.setRequestHandler(CallToolRequestSchema, async (call) => {
    const tool = TOOLS.find((t) => t.name === call.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown tool ${call.params.name}; available: ${TOOLS.map((t) => t.name).join(", ")}.`,
      );
    const args = call.params.arguments ?? {};
    const invalid = checkArguments(tool.name, tool.inputSchema, tool.example, args);
    if (invalid) return { content: [{ type: "text", text: invalid }], isError: true };
    try {
      const answer = await tool.run(context, args as Obj);
      return {
        content: [{ type: "text", text: answer.text }],
        structuredContent: answer.structured,
        isError: false,
      };
    } catch (error) {
      const text = problemText(error);
      if (text === null) throw error;
      return { content: [{ type: "text", text }], isError: true };
    }
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
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
}
