/**
 * entrada-mock — run the Entrada mock server.
 *   entrada-mock --port 4010 --host 127.0.0.1 --seed seed.json --token-ttl 3600
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { OpenApiDocument } from "../core/document.ts";
import type { ClientConfig } from "../core/oauth.ts";
import type { SeedData } from "../core/types.ts";
import { DEMO_CLIENTS, TEST_CARDS } from "../index.ts";
import { indexBiHistory, MAX_HISTORY_ORDERS } from "../sections/bi/index.ts";
import { warmBiColumns } from "../sections/bi/warm.ts";
import { loadCultures } from "./cultures.ts";
import { startMockServer } from "./index.ts";

const HELP = `entrada-mock — a stateful, contract-validating mock of the Entrada API

Options:
  --port <n>               Port (default 4010; 0 picks a free one)
  --host <addr>            Interface (default 127.0.0.1)
  --seed <file.json>       Seed data, keyed by section (default: the built-in catalogue)
  --history-orders <n>     Orders in the BI feed's seeded history (default 1500; 550000 ≈ 1.06 million
                           ticket rows, indexed at startup; 0 for live data only; at most 1000000)
  --cultures <dir>         Also answer in the cultures of <dir>: one folder per tag (e.g. rm-CH/) holding
                           culture.json (tag, name, problem titles) and messages.json (the mock's texts)
  --openapi <file.json>    Serve another bundled OpenAPI 3.1 document (operations without a handler answer 501)
  --token-ttl <seconds>    Access-token lifetime (default 3600)
  --client <id:secret:scopes>  OAuth client, scopes comma-separated (repeatable; replaces the demo clients)
  --rate-limit <n|off>     Requests per minute per client and session (default 6000)
  --validate-responses     Check every response against the document (500 on a violation)
  --no-webhooks            Do not deliver webhooks
  --no-docs                Do not serve the documentation server (/reference, /api/mcp, /ai/)
  --no-bi-assistant        Do not serve the BI assistant MCP server (/bi/mcp)
  --admin-token <token>    What /__mock requires (default: generated and printed when --host is not loopback)

Commands: entrada-mock proxy --upstream <url> | verify --base-url <url> | seed --from <dir> | trigger <kind>
(each with --help)
  -h, --help               This help
`;

function fail(message: string): never {
  console.error(`entrada-mock: ${message}\n\n${HELP}`);
  process.exit(2);
}

// `pnpm mock -- --port 4011` (pnpm 12, npm) hands the script a literal leading `--`; node's parseArgs would treat
// everything after it as positionals. A leading `--` (or a lone one) separates nothing here: drop it.
const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();

const parsed = (() => {
  try {
    return parseArgs({
      args: argv,
      options: {
        port: { type: "string", default: "4010" },
        host: { type: "string", default: "127.0.0.1" },
        seed: { type: "string" },
        "history-orders": { type: "string" },
        openapi: { type: "string" },
        cultures: { type: "string" },
        "token-ttl": { type: "string", default: "3600" },
        client: { type: "string", multiple: true },
        "rate-limit": { type: "string", default: "6000" },
        "validate-responses": { type: "boolean", default: false },
        "no-webhooks": { type: "boolean", default: false },
        "no-docs": { type: "boolean", default: false },
        "admin-token": { type: "string" },
        "no-bi-assistant": { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    });
  } catch (error) {
    fail((error as Error).message);
  }
})();
const { values } = parsed;

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be 0–65535, got ${values.port}`);
const tokenTtl = Number(values["token-ttl"]);
if (!Number.isInteger(tokenTtl) || tokenTtl < 1) fail(`--token-ttl must be a positive number of seconds`);

let seed: SeedData | undefined;
if (values.seed) {
  try {
    seed = JSON.parse(readFileSync(values.seed, "utf8")) as SeedData;
  } catch (error) {
    fail(`cannot read seed ${values.seed}: ${(error as Error).message}`);
  }
  if (seed === null || typeof seed !== "object" || Array.isArray(seed))
    fail("the seed file must hold a JSON object");
}

let historyOrders: number | undefined;
if (values["history-orders"] !== undefined) {
  historyOrders = Number(values["history-orders"]);
  if (!/^\d+$/.test(values["history-orders"]) || historyOrders > MAX_HISTORY_ORDERS)
    fail(
      `--history-orders must be an integer from 0 to ${MAX_HISTORY_ORDERS}, got ${values["history-orders"]}`,
    );
  const bi = (seed?.bi ?? {}) as { history?: Record<string, unknown> | false };
  const history = historyOrders === 0 ? false : { ...(bi.history || {}), orders: historyOrders };
  seed = { ...(seed ?? {}), bi: { ...bi, history } };
}

if (values.cultures) {
  try {
    loadCultures(values.cultures);
  } catch (error) {
    fail(`cannot load cultures: ${(error as Error).message}`);
  }
}

let document: OpenApiDocument | undefined;
if (values.openapi) {
  try {
    document = JSON.parse(readFileSync(values.openapi, "utf8")) as OpenApiDocument;
  } catch (error) {
    fail(`cannot read ${values.openapi}: ${(error as Error).message}`);
  }
  if (typeof document?.openapi !== "string" || !document.openapi.startsWith("3.1"))
    fail("--openapi needs an OpenAPI 3.1 JSON document");
}

let clients: ClientConfig[] = DEMO_CLIENTS;
if (values.client && values.client.length > 0) {
  clients = values.client.map((spec) => {
    const [clientId, secret, scopes = "Shop,TERP"] = spec.split(":");
    if (!clientId || !secret) fail(`--client is id:secret[:Shop,TERP], got ${spec}`);
    return { clientId, secrets: [secret], scopes: scopes.split(",").filter(Boolean) };
  });
}

const rateLimitArg = values["rate-limit"];
const rateLimit =
  rateLimitArg === "off" ? (false as const) : { limit: Number(rateLimitArg), windowSeconds: 60 };
if (rateLimit && (!Number.isInteger(rateLimit.limit) || rateLimit.limit < 1))
  fail("--rate-limit is a positive integer or off");

const started = performance.now();
const mock = await startMockServer({
  port,
  host: values.host,
  tokenTtlSeconds: tokenTtl,
  clients,
  rateLimit,
  webhooks: !values["no-webhooks"],
  docs: !values["no-docs"],
  ...(values["admin-token"] ? { adminToken: values["admin-token"] } : {}),
  biAssistant: !values["no-bi-assistant"],
  ...(seed ? { seed } : {}),
  ...(document ? { document } : {}),
  ...(values["validate-responses"] ? { validateResponses: "strict" as const } : {}),
});
const ready = performance.now() - started;
// A large history is indexed now rather than on the first feed request (a million ticket rows take seconds), and
// the columns the BI assistant's questions aggregate are drawn now rather than on the first question.
const indexed = historyOrders ? indexBiHistory(mock.core.session().world) : null;
const columns = historyOrders && !values["no-bi-assistant"] ? warmBiColumns(mock.core.session().world) : null;

const lines = [
  "",
  `  Entrada mock server  ${mock.url}   (engine ready in ${ready.toFixed(0)} ms, process up ${performance.now().toFixed(0)} ms; ${mock.core.operations.length} operations)`,
  "",
  "  Demo OAuth clients (POST /connect/token, HTTP Basic, grant_type=client_credentials):",
  ...clients.map((c) => `    ${c.clientId.padEnd(16)} secret ${c.secrets[0]}   scopes ${c.scopes.join(" ")}`),
  "",
  "  Test payments:",
  `    provider card       card ${TEST_CARDS.succeeds} succeeds, ${TEST_CARDS.declines} declines (402)`,
  "    provider redirect   checkout answers 202 + redirectUrl to a hosted page (Pay / Fail / Cancel)",
  "",
  `  Developer controls: ${mock.url}/__mock   (contract: ${mock.url}/__mock/openapi.json)`,
  ...(mock.adminToken
    ? [
        `  Exposed on ${values.host}: the API and the documentation to anyone who can reach it; /__mock needs the admin`,
        `  token ${mock.adminToken} (Authorization: Bearer …, or open ${mock.url}/__mock?admin_token=${mock.adminToken});`,
        "  secrets in its answers are shortened; the hosted payment page /__mock/pay stays open.",
      ]
    : []),
  ...(indexed
    ? [
        `  BI feed history: ${indexed.rows.toLocaleString("en-US")} rows (${indexed.tickets.toLocaleString("en-US")} tickets) indexed in ${(indexed.ms / 1000).toFixed(1)} s   (${mock.url}/bi/v1/odata/)`,
      ]
    : []),
  ...(columns
    ? [
        `  BI aggregation columns: ${(columns.bytes / 1_048_576).toFixed(0)} MB drawn in ${(columns.ms / 1000).toFixed(1)} s`,
      ]
    : []),
  `  API reference and guides: ${mock.url}/reference   (open ${mock.url}/ in a browser)`,
  `  Documentation server (MCP, no auth): ${mock.url}/api/mcp   Markdown mirrors: ${mock.url}/ai/index.md`,
  ...(values["no-bi-assistant"]
    ? []
    : [
        `  BI assistant (MCP, bearer token of a demo client, scope Shop): ${mock.url}/bi/mcp   (${mock.url}/.well-known/oauth-protected-resource/bi/mcp)`,
      ]),
  "  Isolate parallel test suites with the header X-Mock-Session: <name>.",
  "",
  "  Try:",
  `    curl -s -u entrada-demo:demo-secret -d grant_type=client_credentials -d scope=Shop ${mock.url}/connect/token`,
  "",
  "  Ctrl-C stops the server.",
  "",
];
console.log(lines.join("\n"));

let closing = false;
const shutdown = (signal: string) => {
  if (closing) return;
  closing = true;
  console.log(`\n  ${signal}: stopping the mock server…`);
  // Exits within 1 s whatever is in flight: close() aborts webhook attempts and drops open connections; this
  // timer is the backstop if anything still holds on.
  const force = setTimeout(() => process.exit(0), 800);
  force.unref();
  mock.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on("SIGINT", () => shutdown("SIGINT"));
process.on("SIGTERM", () => shutdown("SIGTERM"));
