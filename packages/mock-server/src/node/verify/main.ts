/**
 * `entrada-mock verify --base-url <url> --client-id … --client-secret … [--read-only] [--junit FILE]`: a
 * conformance suite for any server that claims the Entrada API — the mock, a staging or a production service.
 * Exit 0 when every answer conforms, 1 naming each difference (operation, rule, pointer), 2 for bad usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { OpenApiDocument } from "../../core/document.ts";
import { runAuthProbes } from "./auth-probes.ts";
import { runJourneys } from "./journeys.ts";
import { differenceLine, junitXml } from "./junit.ts";
import { runProbes } from "./probes.ts";
import { type CaseResult, Run } from "./suite.ts";

export interface VerifyIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

const HELP = `entrada-mock verify — check that a server conforms to the Entrada contract

Usage:
  entrada-mock verify --base-url <url> --client-id <id> --client-secret <secret> [options]

Options:
  --base-url <url>        The server (default http://127.0.0.1:4010)
  --client-id <id>        OAuth client (default ENTRADA_CLIENT_ID or entrada-demo)
  --client-secret <s>     (default ENTRADA_CLIENT_SECRET or demo-secret)
  --read-only             Send no write (for production): probes every read, runs the reading journeys only
  --webhook-url <url>     Where the purchase journey subscribes (default: a receiver on this machine's loopback)
  --expired-token <t>     A token of this client that has expired, kept from an earlier run (default
                          ENTRADA_EXPIRED_TOKEN); against the mock one is made by moving its clock
  --junit <file>          Also write the results as JUnit XML (for CI)
  --openapi <file.json>   Check against another bundled OpenAPI 3.1 document (default: the Entrada contract)
  --timeout <ms>          How long one request may take (default 10000); no answer is a difference, never a hang
  -h, --help              This help

It runs the documented journeys (purchase with its webhook, idempotent replay, languages, entrance scan), sends
one safe request per operation — an unknown id matching the parameter's pattern must be a 404 problem — and
negative authentication probes per operation (no token → 401 with the bare challenge; a forged or expired token
→ 401 invalid_token; a token without the scope → 403 insufficient_scope), checking every answer against the contract
(status declared, media type, body schema, documented headers, problem shape, replay semantics, the
Deprecation/Sunset/Link headers of deprecated operations). Exit 0: conforms; 1: differences (listed as operation,
rule, pointer); 2: bad usage.
`;

function mark(result: CaseResult): string {
  if (result.skipped !== undefined) return `  - ${result.name}  (skipped: ${result.skipped})`;
  if (result.differences.length === 0) return `  ✓ ${result.name}`;
  return [`  ✗ ${result.name}`, ...result.differences.map((d) => `      ${differenceLine(d)}`)].join("\n");
}

export async function verifyMain(
  args: string[],
  io: VerifyIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args,
      options: {
        "base-url": { type: "string", default: "http://127.0.0.1:4010" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        "read-only": { type: "boolean", default: false },
        "webhook-url": { type: "string" },
        "expired-token": { type: "string" },
        junit: { type: "string" },
        openapi: { type: "string" },
        timeout: { type: "string", default: "10000" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
    }).values;
  } catch (error) {
    io.err(`entrada-mock verify: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    io.out(HELP);
    return 0;
  }
  const baseUrl = String(values["base-url"]);
  try {
    new URL(baseUrl);
  } catch {
    io.err(`entrada-mock verify: --base-url must be an absolute URL, got ${baseUrl}`);
    return 2;
  }
  let document: OpenApiDocument | undefined;
  if (typeof values.openapi === "string") {
    try {
      document = JSON.parse(readFileSync(values.openapi, "utf8")) as OpenApiDocument;
    } catch (error) {
      io.err(`entrada-mock verify: cannot read ${values.openapi}: ${(error as Error).message}`);
      return 2;
    }
    if (typeof document?.openapi !== "string" || !document.openapi.startsWith("3.1")) {
      io.err("entrada-mock verify: --openapi needs an OpenAPI 3.1 JSON document");
      return 2;
    }
  }
  const timeoutMs = Number(values.timeout);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    io.err(`entrada-mock verify: --timeout must be a positive number of milliseconds, got ${values.timeout}`);
    return 2;
  }
  const expiredToken = String(values["expired-token"] ?? env.ENTRADA_EXPIRED_TOKEN ?? "").trim();
  const run = new Run({
    ...(document ? { document } : {}),
    timeoutMs,
    baseUrl,
    clientId: String(values["client-id"] ?? env.ENTRADA_CLIENT_ID ?? "entrada-demo"),
    clientSecret: String(values["client-secret"] ?? env.ENTRADA_CLIENT_SECRET ?? "demo-secret"),
    readOnly: values["read-only"] === true,
    ...(typeof values["webhook-url"] === "string" ? { webhookUrl: values["webhook-url"] } : {}),
    ...(expiredToken ? { expiredToken } : {}),
  });
  io.out(`entrada-mock verify ${baseUrl}${values["read-only"] ? " (read-only)" : ""}`);
  // Journeys first: they find the ids (an event, an order, a gate) the per-operation probes then use.
  const sections: Array<[string, (run: Run) => Promise<void>]> = [
    ["Journeys", runJourneys],
    ["Operations", runProbes],
    ["Authentication", runAuthProbes],
  ];
  for (const [title, runSection] of sections) {
    io.out(title);
    const before = run.results.length;
    try {
      await runSection(run);
    } catch (error) {
      // Cases catch their own failures; this is the suite itself failing: reported, never a stack trace.
      io.err(`entrada-mock verify: ${title.toLowerCase()} stopped: ${(error as Error).message}`);
      return 1;
    }
    for (const r of run.results.slice(before)) io.out(mark(r));
  }

  const failed = run.results.filter((r) => r.differences.length > 0);
  // Distinct differences of the run: the same (operation, rule, pointer) met by several cases counts once.
  const differences = new Set(
    failed.flatMap((r) => r.differences.map((d) => `${d.operationId} ${d.rule} ${d.pointer}`)),
  ).size;
  const count = (suite: CaseResult["suite"]) => run.results.filter((r) => r.suite === suite).length;
  const skipped = run.results.filter((r) => r.skipped !== undefined).length;
  io.out(
    `\n${count("operations")} operations, ${count("authentication")} authentication probes, ${count("journeys")} journeys, ${skipped} skipped: ${
      differences === 0
        ? "conforms to the contract"
        : `${differences} difference${differences === 1 ? "" : "s"} in ${failed.length} case${failed.length === 1 ? "" : "s"}`
    }`,
  );
  if (typeof values.junit === "string") {
    writeFileSync(values.junit, junitXml(baseUrl, run.results));
    io.out(`JUnit report: ${values.junit}`);
  }
  return differences === 0 ? 0 : 1;
}
