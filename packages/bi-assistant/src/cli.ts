#!/usr/bin/env node
/**
 * entrada-bi-assistant — the BI assistant MCP server against any BI feed.
 *   entrada-bi-assistant --api https://api.entrada.example --port 4320
 */
import { parseArgs } from "node:util";
import { startBiAssistant } from "./node.ts";

const HELP = `entrada-bi-assistant — the Entrada BI assistant (MCP over Streamable HTTP, bearer tokens of the BI API)

Options:
  --api <url>          API base URL; the BI feed is at <url>/bi/v1/odata, tokens come from <url>/connect/token
                       (default http://127.0.0.1:4010, the local mock)
  --port <n>           Port (default 4320; 0 picks a free one)
  --host <addr>        Interface (default 127.0.0.1)
  --path <path>        MCP endpoint path (default /mcp)
  --time-limit <ms>    Longest an answer gathers pages (default 10000)
  -h, --help           This help
`;

const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    args: argv,
    options: {
      api: { type: "string", default: "http://127.0.0.1:4010" },
      port: { type: "string", default: "4320" },
      host: { type: "string", default: "127.0.0.1" },
      path: { type: "string", default: "/mcp" },
      "time-limit": { type: "string", default: "10000" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  }));
} catch (error) {
  console.error(`entrada-bi-assistant: ${(error as Error).message}\n\n${HELP}`);
  process.exit(2);
}
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const fail = (message: string): never => {
  console.error(`entrada-bi-assistant: ${message}\n\n${HELP}`);
  process.exit(2);
};
const api = String(values.api);
if (!/^https?:\/\/[^/]/.test(api)) fail(`--api must be an http(s) URL, got ${api}`);
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0–65535, got ${values.port}`);
const timeLimitMs = Number(values["time-limit"]);
if (!Number.isInteger(timeLimitMs) || timeLimitMs < 100) fail("--time-limit must be at least 100 ms");
const path = String(values.path);
if (!/^\/[A-Za-z0-9/_-]*$/.test(path)) fail(`--path must be a path such as /mcp, got ${path}`);

const running = await startBiAssistant({ apiUrl: api, port, host: String(values.host), path, timeLimitMs });
console.log(
  [
    "",
    `  Entrada BI assistant  ${running.url}${path}   (MCP, Streamable HTTP, stateless)`,
    `  BI feed: ${api.replace(/\/+$/, "")}/bi/v1/odata   tokens: ${api.replace(/\/+$/, "")}/connect/token (client credentials, scope Shop)`,
    `  Protected resource metadata: ${running.url}/.well-known/oauth-protected-resource${path}`,
    "",
  ].join("\n"),
);
const stop = () => void running.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
