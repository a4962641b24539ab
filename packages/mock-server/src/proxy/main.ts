/**
 * `entrada-mock proxy --upstream <url> [--port N] [--host H] [--fallback] [--record DIR] [--report FILE]
 * [--admin-token T]`: the contract proxy (see pipeline.ts). Prints what it exposes, one line per request, and
 * writes the report on exit.
 */
import { parseArgs } from "node:util";
import { ForeignRecordingDirError } from "./recorder.ts";
import { startProxyServer } from "./server.ts";

export interface ProxyIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const HELP = `entrada-mock proxy — relay to a real Entrada API and report where it differs from the contract

Usage:
  entrada-mock proxy --upstream <url> [options]

Options:
  --upstream <url>        The server to relay to (required), e.g. https://api.example.com
  --port <n>              Port (default 4020; 0 picks a free one)
  --host <addr>           Interface (default 127.0.0.1; any other needs the admin token for /__mock)
  --fallback              Answer from the local mock what the upstream cannot (unreachable, 501), marked
                          X-Entrada-Source: local-fallback
  --record <dir>          Save sanitized request/response pairs per operation (for entrada-mock seed --from)
  --report <file>         Write the drift report (JSON) on exit
  --admin-token <token>   What /__mock requires (default: generated and printed when --host is not loopback)
  --quiet                 No line per request
  -h, --help              This help

Every answer carries X-Entrada-Contract: ok, or its violations (rule and JSON pointer). The drift so far:
GET /__mock/drift (JSON for programs, a page for a browser).
`;

export async function proxyMain(args: string[], io: ProxyIo): Promise<{ close(): Promise<void> } | number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        upstream: { type: "string" },
        port: { type: "string", default: "4020" },
        host: { type: "string", default: "127.0.0.1" },
        fallback: { type: "boolean", default: false },
        record: { type: "string" },
        report: { type: "string" },
        "admin-token": { type: "string" },
        quiet: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    io.err(`entrada-mock proxy: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const upstream = values.upstream;
  if (typeof upstream !== "string" || !/^https?:\/\/[^/]/.test(upstream)) {
    io.err(`entrada-mock proxy: --upstream <http(s) URL> is required\n\n${HELP}`);
    return 2;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.err(`entrada-mock proxy: --port must be 0–65535, got ${values.port}`);
    return 2;
  }
  let proxy: Awaited<ReturnType<typeof startProxyServer>>;
  try {
    proxy = await startProxyServer({
      upstream,
      port,
      host: String(values.host),
      fallback: values.fallback === true,
      ...(typeof values.record === "string" ? { record: values.record } : {}),
      ...(typeof values.report === "string" ? { report: values.report } : {}),
      ...(typeof values["admin-token"] === "string" ? { adminToken: values["admin-token"] } : {}),
      log: values.quiet ? () => {} : (line) => io.out(`  ${line}`),
    });
  } catch (error) {
    if (!(error instanceof ForeignRecordingDirError)) throw error;
    io.err(`entrada-mock proxy: ${error.message}`);
    return 2;
  }
  const drift = `${proxy.url}/__mock/drift`;
  io.out(
    [
      "",
      `  Entrada contract proxy  ${proxy.url}  →  ${upstream}`,
      "",
      `  Every answer carries X-Entrada-Contract (ok, or its violations).${values.fallback ? " --fallback: the local mock answers when the upstream cannot (X-Entrada-Source: local-fallback)." : ""}`,
      `  Drift report: ${drift}   (a page in a browser, JSON for Accept: application/json)`,
      ...(values.record
        ? [
            `  Recording sanitized exchanges to ${values.record} (then: entrada-mock seed --from ${values.record})`,
          ]
        : []),
      ...(values.report ? [`  The report is written to ${values.report} on exit.`] : []),
      ...(proxy.adminToken
        ? [
            `  Exposed on ${String(values.host)}: the API relay to anyone who can reach it; /__mock needs the admin token:`,
            `    ${proxy.adminToken}   (Authorization: Bearer …, or open ${drift}?admin_token=${proxy.adminToken})`,
          ]
        : ["  Loopback only: the relay and /__mock are reachable from this machine alone."]),
      "  Credentials pass through to the upstream and are never stored or printed.",
      "",
    ].join("\n"),
  );
  return proxy;
}
