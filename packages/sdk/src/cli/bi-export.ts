#!/usr/bin/env node
/**
 * entrada-bi-export: exports one BI dataset to NDJSON, CSV or Parquet, page by page, in constant memory; with
 * --state only the rows changed since the last run; with --duckdb into a local DuckDB file (upsert by key).
 *
 *   entrada-bi-export --base-url https://api.entrada.example --dataset Tickets --format csv --out tickets.csv
 *   entrada-bi-export ... --dataset Tickets --format parquet --out tickets-$(date +%s).parquet --state tickets.state.json
 *   entrada-bi-export ... --dataset Tickets --duckdb entrada.duckdb
 *
 * Credentials come from --client-id/--client-secret or ENTRADA_CLIENT_ID/ENTRADA_CLIENT_SECRET.
 * Exit codes follow the SDK error's kind: 0 done, 1 I/O or unexpected error, 2 usage (and invalid-argument),
 * 3 authentication (oauth, or a 401/403 answer), 4 BI feed error (odata, problem, unexpected-body), 5 network
 * (host unreachable), 6 timeout, 130 interrupted (aborted).
 */
import { createWriteStream } from "node:fs";
import { rename, rm } from "node:fs/promises";
import { Writable } from "node:stream";
import { parseArgs } from "node:util";
// Modules, not the `bi/index.ts` barrel: the Parquet writer is then loaded only by a Parquet export (start-up).
import { ODataError } from "../bi/errors.ts";
import { type BiFeed, biFeed } from "../bi/feed.ts";
import { BiStateError } from "../bi/incremental.ts";
import { type BiEntitySet, biEntitySets, isEntitySet } from "../bi/metadata.ts";
import { type ODataQuery, odata } from "../bi/query.ts";
import type { BiExportFormat, BiExportProgress } from "../bi/types.ts";
import { type EntradaError, isEntradaError } from "../core/errors.ts";
import { progressReporter } from "./progress.ts";

const USAGE = `Usage: entrada-bi-export --base-url URL --dataset NAME --format ndjson|csv|parquet --out FILE|-
                         [--state FILE]
       entrada-bi-export --base-url URL --dataset NAME --duckdb FILE.duckdb [--full]
                         [--client-id ID --client-secret SECRET] [--scope Shop]
                         [--filter "OData expression"] [--select a,b,c] [--page-size N]
                         [--locale de-CH] [--quiet]
                         [--row-group-size ROWS] [--row-group-bytes SIZE]

--state FILE   incremental: export only rows changed (ModifiedAt) since the run that wrote FILE, then move its
               watermark; a stopped run is repeated or finished, never doubled. FILE is bound to the feed,
               dataset and --filter.
--row-group-size ROWS, --row-group-bytes SIZE
               Parquet: a row group ends at ROWS rows (default 50000) or at about SIZE of buffered values
               (default 4MiB; e.g. 16MiB, 64MB, 1048576), whichever comes first. Memory grows with the
               row group: larger groups compress a little better.
--duckdb FILE  load into a DuckDB file, upsert by key, incremental (watermark kept in FILE); --full reloads all.
               Needs the optional package @duckdb/node-api.

Datasets: ${Object.keys(biEntitySets).join(", ")}
An --out file ending in .gz is written gzip-compressed.
Credentials default to the ENTRADA_CLIENT_ID and ENTRADA_CLIENT_SECRET environment variables.
Exit codes: 0 done, 1 I/O error, 2 usage, 3 authentication, 4 BI feed error, 5 network (host unreachable),
6 timeout, 130 interrupted.`;

class CliError extends Error {
  readonly exitCode: number;
  constructor(exitCode: number, message: string) {
    super(message);
    this.exitCode = exitCode;
  }
}

const usage = (message: string) => new CliError(2, `${message}\n\n${USAGE}`);

interface Config {
  baseUrl: URL;
  clientId: string;
  clientSecret: string;
  scope: string;
  locale: string | undefined;
  dataset: keyof typeof biEntitySets;
  format: BiExportFormat;
  out: string;
  state: string | undefined;
  duckdb: string | undefined;
  full: boolean;
  filter: string | undefined;
  select: string[] | undefined;
  pageSize: number | undefined;
  parquet: { rowGroupSize?: number; rowGroupBytes?: number };
  quiet: boolean;
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  kib: 1024,
  mb: 1e6,
  mib: 1024 ** 2,
  gb: 1e9,
  gib: 1024 ** 3,
};

/** `16MiB`, `64MB`, `1048576` → bytes; undefined for anything else. */
function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmg]i?b|b)?\s*$/i.exec(text);
  const unit = UNITS[(m?.[2] ?? "").toLowerCase()];
  if (!m || unit === undefined) return undefined;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes >= 1 ? bytes : undefined;
}

function readConfig(argv: string[], env: NodeJS.ProcessEnv): Config | "help" {
  let values: ReturnType<typeof parse>["values"];
  function parse() {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        "base-url": { type: "string" },
        "client-id": { type: "string" },
        "client-secret": { type: "string" },
        scope: { type: "string", default: "Shop" },
        locale: { type: "string" },
        dataset: { type: "string" },
        format: { type: "string" },
        out: { type: "string" },
        filter: { type: "string" },
        select: { type: "string" },
        "page-size": { type: "string" },
        "row-group-size": { type: "string" },
        "row-group-bytes": { type: "string" },
        state: { type: "string" },
        duckdb: { type: "string" },
        full: { type: "boolean", default: false },
        quiet: { type: "boolean", short: "q", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  }
  try {
    values = parse().values;
  } catch (e) {
    throw usage((e as Error).message);
  }
  if (values.help) return "help";
  const baseUrlText = values["base-url"];
  if (!baseUrlText) throw usage("--base-url is required");
  let baseUrl: URL;
  try {
    baseUrl = new URL(baseUrlText);
  } catch {
    throw usage(`--base-url is not a URL: ${baseUrlText}`);
  }
  if (baseUrl.protocol !== "https:" && baseUrl.protocol !== "http:")
    throw usage("--base-url must be http(s)");
  const clientId = values["client-id"] ?? env.ENTRADA_CLIENT_ID;
  const clientSecret = values["client-secret"] ?? env.ENTRADA_CLIENT_SECRET;
  if (!clientId || !clientSecret) {
    throw usage(
      "Client credentials are required: --client-id/--client-secret or ENTRADA_CLIENT_ID/ENTRADA_CLIENT_SECRET",
    );
  }
  const dataset = values.dataset;
  if (!dataset || !isEntitySet(dataset)) {
    throw usage(
      `--dataset must be one of ${Object.keys(biEntitySets).join(", ")}${dataset ? ` (got "${dataset}")` : ""}`,
    );
  }
  const duckdb = values.duckdb;
  const format = duckdb && values.format === undefined ? "parquet" : values.format;
  if (format !== "ndjson" && format !== "csv" && format !== "parquet")
    throw usage("--format must be ndjson, csv or parquet");
  if (duckdb && (values.out !== undefined || values.state !== undefined))
    throw usage("--duckdb loads into the database (its watermark lives there): drop --out and --state");
  if (!duckdb && !values.out) throw usage("--out is required (a file path, or - for standard output)");
  if (values.state !== undefined && values.out === "-")
    throw usage("--state needs an --out file: the watermark moves only once the file is in place");
  if (values.full && !duckdb) throw usage("--full goes with --duckdb (without --state every export is full)");
  let select: string[] | undefined;
  if (values.select !== undefined) {
    select = values.select
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean);
    const known = Object.keys(biEntitySets[dataset]);
    const unknown = select.filter((s) => !known.includes(s));
    if (!select.length || unknown.length) {
      throw usage(
        `--select: unknown ${dataset} properties ${unknown.join(", ") || "(none given)"}; known: ${known.join(", ")}`,
      );
    }
  }
  let pageSize: number | undefined;
  if (values.locale !== undefined && !/^[a-z]{2,3}(-[A-Z]{2})?$/.test(values.locale)) {
    throw usage(`--locale must be a culture tag such as de-CH (got "${values.locale}")`);
  }
  if (values["page-size"] !== undefined) {
    pageSize = Number(values["page-size"]);
    if (!Number.isSafeInteger(pageSize) || pageSize < 1)
      throw usage("--page-size must be a positive integer");
  }
  const parquet: Config["parquet"] = {};
  const rowGroupSize = values["row-group-size"];
  const rowGroupBytes = values["row-group-bytes"];
  if ((rowGroupSize !== undefined || rowGroupBytes !== undefined) && format !== "parquet")
    throw usage("--row-group-size and --row-group-bytes go with --format parquet");
  if (rowGroupSize !== undefined) {
    parquet.rowGroupSize = Number(rowGroupSize);
    if (
      !/^\d+$/.test(rowGroupSize) ||
      !Number.isSafeInteger(parquet.rowGroupSize) ||
      parquet.rowGroupSize < 1
    )
      throw usage(`--row-group-size must be a positive number of rows (got "${rowGroupSize}")`);
  }
  if (rowGroupBytes !== undefined) {
    const bytes = parseByteSize(rowGroupBytes);
    if (bytes === undefined)
      throw usage(`--row-group-bytes must be a size such as 16MiB, 64MB or 1048576 (got "${rowGroupBytes}")`);
    parquet.rowGroupBytes = bytes;
  }
  return {
    baseUrl,
    clientId,
    clientSecret,
    scope: values.scope ?? "Shop",
    locale: values.locale,
    dataset,
    format,
    out: values.out ?? "",
    state: values.state,
    duckdb,
    full: values.full ?? false,
    filter: values.filter,
    select,
    pageSize,
    parquet,
    quiet: values.quiet ?? false,
  };
}

async function main(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = readConfig(argv, env);
  if (config === "help") {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  // Names were validated against the dataset above; the query's static row type is not needed here.
  let query = odata(config.dataset).count() as unknown as ODataQuery<BiEntitySet, never>;
  if (config.filter) query = query.filter(config.filter);
  if (config.select) query = query.select(...(config.select as never[]));
  // The SDK's transport: client-credentials tokens (HTTP Basic, single flight), language, retries, typed errors.
  const feed = biFeed({
    baseUrl: config.baseUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    scope: config.scope,
    maxPageSize: config.pageSize,
    locale: config.locale,
  });

  if (config.duckdb || config.state) return runWarehouse(config, feed, query);
  const toStdout = config.out === "-";
  // Write next to the target and rename at the end, so a failed export never looks like a complete file.
  const partial = `${config.out}.partial`;
  const sink = toStdout ? process.stdout : createWriteStream(partial);
  const destination = Writable.toWeb(sink) as WritableStream<Uint8Array>;
  const controller = new AbortController();
  const onSignal = () => controller.abort(new CliError(130, "Interrupted"));
  process.once("SIGINT", onSignal);
  const progress = progressReporter(process.stderr, config.quiet);
  try {
    let result: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
    const stream = feed.exportStream(query, {
      format: config.format,
      signal: controller.signal,
      parquet: config.parquet,
      onWarning: warn,
      onProgress: (p) => {
        result = p;
        progress.update(p);
      },
    });
    // `--out file.csv.gz`: gzip on the way out (progress counts the uncompressed bytes).
    const gzip = !toStdout && config.out.endsWith(".gz");
    await (gzip ? stream.pipeThrough(new CompressionStream("gzip")) : stream).pipeTo(destination, {
      signal: controller.signal,
    });
    if (!toStdout) await rename(partial, config.out);
    progress.done(result, toStdout ? "stdout" : config.out);
    return 0;
  } catch (e) {
    if (!toStdout) await rm(partial, { force: true });
    if (controller.signal.aborted) throw controller.signal.reason;
    // A failed page ends the stream with the SDK error as its cause (pipeTo rethrows it as is).
    throw e;
  } finally {
    process.off("SIGINT", onSignal);
  }
}

/** A warning on standard error, on its own line (the progress bar is redrawn after it). */
function warn(message: string): void {
  process.stderr.write(`${process.stderr.isTTY ? "\r\x1b[K" : ""}entrada-bi-export: warning: ${message}\n`);
}

/** Exit code of an SDK error, by its kind. */
function exitCodeOf(error: EntradaError): number {
  if (error.kind === "oauth" || error.status === 401 || error.status === 403) return 3;
  switch (error.kind) {
    case "network":
      return 5;
    case "timeout":
      return 6;
    case "aborted":
      return 130;
    case "invalid-argument":
      return 2;
    default:
      return 4;
  }
}

/** `--duckdb` and `--state` runs (see warehouse.ts), with the same progress bar and Ctrl-C handling. */
async function runWarehouse(
  config: Config,
  feed: BiFeed,
  query: ODataQuery<BiEntitySet, never>,
): Promise<number> {
  const controller = new AbortController();
  const onSignal = () => controller.abort(new CliError(130, "Interrupted"));
  process.once("SIGINT", onSignal);
  const progress = progressReporter(process.stderr, config.quiet);
  try {
    // Loaded only for these runs (DuckDB, state files): plain exports start faster.
    const { runWarehouseTarget } = await import("./warehouse.ts");
    const done = await runWarehouseTarget(
      config,
      feed,
      query,
      controller.signal,
      (p) => progress.update(p),
      warn,
    );
    progress.done(done.progress, done.target);
    if (!config.quiet) process.stderr.write(`${done.summary}\n`);
    return 0;
  } catch (e) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw e;
  } finally {
    process.off("SIGINT", onSignal);
  }
}

function report(e: unknown): number {
  if (process.stderr.isTTY) process.stderr.write("\n");
  if (e instanceof BiStateError) {
    console.error(`entrada-bi-export: ${e.message}`);
    return 2;
  }
  if (e instanceof CliError) {
    console.error(`entrada-bi-export: ${e.message}`);
    return e.exitCode;
  }
  if (isEntradaError(e)) {
    const label: Record<string, string> = {
      oauth: "authentication failed",
      network: "network error",
      timeout: "timeout",
      aborted: "interrupted",
      "invalid-argument": "invalid argument",
      odata: "BI feed error",
      problem: "BI feed error",
      "unexpected-body": "BI feed error",
    };
    const target = e instanceof ODataError && e.target ? ` [${e.target}]` : "";
    const log = e.logId ? ` (log id ${e.logId})` : "";
    console.error(`entrada-bi-export: ${label[e.kind] ?? e.kind}${target}: ${e.message}${log}`);
    return exitCodeOf(e);
  }
  console.error(`entrada-bi-export: ${(e as Error)?.message ?? String(e)}`);
  return 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.exitCode = report(e);
  },
);
