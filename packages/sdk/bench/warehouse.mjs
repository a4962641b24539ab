#!/usr/bin/env node
// Warehouse export benchmark (Node 24: `pnpm --filter @entrada/sdk bench:warehouse [-- --orders 55000]`).
//
// Data: the mock server's large-history mode — its own deterministic history generator (`bi.history.orders`;
// 550,000 orders give about 1.06 million ticket rows) — served by a thin keyset-paging OData endpoint in this
// process. Not the mock's HTTP engine itself: that filters and sorts every row on every page (measured ~9 s per
// 5,000-row page at a million rows), which would measure the mock, not the exporter.
//
// Runs, each in its own process (peak RSS is per run), all against the same data in this run:
//   1. NDJSON, full                       — the baseline
//   2. Parquet, first 10 % of the rows    — memory must not grow with the row count (compare with 3)
//   3. Parquet, full, incremental state   — first run: everything
//   4. Parquet, incremental after 10,000 rows changed
// and checks the Parquet files with DuckDB (row counts, distinct keys).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { history } from "../../mock-server/src/sections/bi/history.ts";

const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--"));
const { values } = parseArgs({
  args: argv,
  options: { orders: { type: "string", default: "550000" }, touch: { type: "string", default: "10000" } },
});
const here = fileURLToPath(new URL(".", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "entrada-warehouse-bench-"));

const t = performance.now();
const anchor = Date.parse("2026-11-01T00:00:00Z");
const rows = [
  ...history({ seed: 20260101, orders: Number(values.orders), anchor, days: 365 }, "en-GB").Tickets,
];
const stamp = (r) => Date.parse(r.ModifiedAt);
const order = (a, b) =>
  stamp(a) - stamp(b) || (a.TicketId < b.TicketId ? -1 : a.TicketId > b.TicketId ? 1 : 0);
rows.sort(order);
console.log(
  `data: ${rows.length} ticket rows from the mock's history generator in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

/** First index after the watermark (rows are in (ModifiedAt, TicketId) order). */
function after(at, key) {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = rows[mid];
    if (stamp(r) < at || (stamp(r) === at && r.TicketId <= key)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const server = createServer((req, res) => {
  const url = new URL(req.url, "http://127.0.0.1");
  if (url.pathname === "/connect/token") {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ access_token: "bench", token_type: "Bearer", expires_in: 3600 }));
  }
  const size = Number(/maxpagesize=(\d+)/.exec(req.headers.prefer ?? "")?.[1] ?? 1000);
  const filter = url.searchParams.get("$filter");
  const mark =
    filter && /ModifiedAt gt (\S+) or \(ModifiedAt eq \S+ and TicketId gt '([^']*)'\)/.exec(filter);
  const first = mark ? after(Date.parse(mark[1]), mark[2]) : 0;
  const top = url.searchParams.has("$top") ? Number(url.searchParams.get("$top")) : Number.POSITIVE_INFINITY;
  const end = Math.min(rows.length, first + top);
  const from = Number(url.searchParams.get("$skiptoken") ?? first);
  const to = Math.min(end, from + size);
  const body = { "@odata.context": "$metadata#Tickets", value: rows.slice(from, to) };
  if (url.searchParams.get("$count") === "true") body["@odata.count"] = end - first;
  if (to < end) {
    url.searchParams.set("$skiptoken", String(to));
    body["@odata.nextLink"] = `http://127.0.0.1:${server.address().port}${url.pathname}?${url.searchParams}`;
  }
  res.writeHead(200, { "content-type": "application/json", "odata-version": "4.0" });
  res.end(JSON.stringify(body));
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const base = `http://127.0.0.1:${server.address().port}`;

/** One run in a child process (async spawn: this process keeps serving pages meanwhile). */
function run(label, format, out, state = "-", top = "-") {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(here, "warehouse-run.ts"), base, format, out, state, top], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}`));
      const r = JSON.parse(text.trim().split("\n").at(-1));
      r.fileMB = +(statSync(out).size / 1048576).toFixed(1);
      console.log(
        `${label.padEnd(34)} ${String(r.rows).padStart(8)} rows  ${String(r.rowsPerSecond).padStart(7)} rows/s  peak RSS ${String(r.peakRssMB).padStart(4)} MB  file ${r.fileMB} MB`,
      );
      resolve(r);
    });
  });
}

const ndjson = await run("1. NDJSON, full (baseline)", "ndjson", join(dir, "t.ndjson"));
const tenth = await run(
  "2. Parquet, first 10 %",
  "parquet",
  join(dir, "t10.parquet"),
  "-",
  String(Math.floor(rows.length / 10)),
);
const state = join(dir, "tickets.state.json");
const full = await run("3. Parquet, full (incremental, 1st)", "parquet", join(dir, "t-full.parquet"), state);
// 10,000 tickets change (admitted now): they move to the end of the (ModifiedAt, key) order.
const now = new Date(Date.now()).toISOString();
const touched = new Set();
for (let i = 0; touched.size < Number(values.touch); i += 97) touched.add(i % rows.length);
const changed = [...touched].map((i) => ({
  ...rows[i],
  Status: "used",
  FirstAdmittedAt: now,
  ModifiedAt: now,
}));
for (const i of [...touched].sort((a, b) => b - a)) rows.splice(i, 1);
rows.push(...changed.sort(order));
const incremental = await run(
  "4. Parquet, incremental (changed)",
  "parquet",
  join(dir, "t-inc.parquet"),
  state,
);
server.close();

const check = spawnSync(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    `import { DuckDBInstance } from "@duckdb/node-api";
     const db = await (await DuckDBInstance.create(":memory:")).connect();
     const q = async (f) => (await db.runAndReadAll("SELECT count(*)::INTEGER AS n, count(DISTINCT TicketId)::INTEGER AS k FROM '" + f + "'")).getRowObjectsJson()[0];
     console.log(JSON.stringify([await q(${JSON.stringify(join(dir, "t-full.parquet"))}), await q(${JSON.stringify(join(dir, "t-inc.parquet"))})]));`,
  ],
  { cwd: join(here, ".."), encoding: "utf8" },
);
console.log(`DuckDB reads: full ${check.stdout.trim()} (rows, distinct keys: full run, incremental run)`);
console.log(
  `ratios vs NDJSON (same run): Parquet rows/s ${(full.rowsPerSecond / ndjson.rowsPerSecond).toFixed(2)}×, file size ${(full.fileMB / ndjson.fileMB).toFixed(2)}×, peak RSS ${(full.peakRssMB / ndjson.peakRssMB).toFixed(2)}×; Parquet peak RSS full / 10 %: ${(full.peakRssMB / tenth.peakRssMB).toFixed(2)}×; incremental exported ${incremental.rows} of ${rows.length} rows`,
);
rmSync(dir, { recursive: true, force: true });
