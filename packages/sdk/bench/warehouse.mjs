#!/usr/bin/env node
// Warehouse export benchmark (Node 24):
//   pnpm --filter @entrada/sdk bench:warehouse [-- --orders 550000 --touch 10000 --port 0 --mock-heap <MB>]
//
// Data: the real mock server (`entrada-mock --history-orders <orders>`, its CLI in a child process, so its memory is
// measured on its own): 550,000 orders give about 1.06 million ticket rows in the BI feed's seeded history, indexed
// by the mock at startup. Every run exports the Tickets dataset over the mock's HTTP feed with the SDK, as
// `entrada-bi-export` does (OAuth client credentials, `Prefer: odata.maxpagesize=5000`, next links, the CLI's
// progress bar on stderr).
//
// Runs, each in its own process (peak RSS is that process's own, as the OS reports it: getrusage's ru_maxrss; the
// mock is another process), all against the same mock in this run:
//   0. baseline: the same pages fetched with plain fetch + JSON.parse and dropped (warehouse-baseline.ts): what
//      reading the feed costs without the SDK, any encoding or a file
//   1. NDJSON, full
//   2. Parquet, first 10 % of the rows    — memory must not grow with the row count (compare with 3)
//   3. Parquet, full, incremental state   — first run: everything
//   4. Parquet, incremental after `touch` ticket rows changed through the mock's own API: half of them bought
//      before run 1 and admitted at a gate after run 3 (changed rows), half bought after run 3 (new rows)
// then checks the Parquet files with DuckDB (row counts, distinct keys), and reports the mock's peak RSS per phase.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { createClient, paginate } from "../src/index.ts";

const argv = process.argv.slice(2).filter((a, i) => !(i === 0 && a === "--"));
const { values } = parseArgs({
  args: argv,
  options: {
    orders: { type: "string", default: "550000" },
    touch: { type: "string", default: "10000" },
    port: { type: "string", default: "0" },
    // The mock's V8 old-space limit (`--max-old-space-size`), to see its RSS with a capped heap; default: Node's.
    "mock-heap": { type: "string" },
  },
});
const here = fileURLToPath(new URL(".", import.meta.url));
const mockRoot = join(here, "../../mock-server");
const dir = mkdtempSync(join(tmpdir(), "entrada-warehouse-bench-"));
const credentials = { clientId: "entrada-demo", clientSecret: "demo-secret" };
/** The mock's always-approved test card (printed in its banner). */
const CARD = "4242424242424242";
/** Rows per page asked of the feed (`Prefer: odata.maxpagesize`), as `entrada-bi-export --page-size 5000`. */
const PAGE_SIZE = 5000;

// --- The mock -------------------------------------------------------------------------------------------------
const mock = spawn(
  process.execPath,
  [
    ...(values["mock-heap"] ? [`--max-old-space-size=${Number(values["mock-heap"])}`] : []),
    "--conditions=source",
    "--experimental-transform-types",
    "--disable-warning=ExperimentalWarning",
    "src/node/cli.ts",
    "--port",
    values.port,
    "--history-orders",
    values.orders,
    "--rate-limit",
    "off",
    "--no-webhooks",
    "--no-docs",
  ],
  { cwd: mockRoot, stdio: ["ignore", "pipe", "inherit"] },
);
const base = await new Promise((resolve, reject) => {
  let out = "";
  const banner = (d) => {
    out += d;
    const url = /Entrada mock server {2}(http:\/\/[^\s]+)/.exec(out)?.[1];
    if (url && /Ctrl-C stops the server/.test(out)) {
      mock.stdout.off("data", banner);
      console.log(/BI feed history: .*/.exec(out)?.[0] ?? "");
      resolve(url);
    }
  };
  mock.stdout.on("data", banner);
  mock.on("exit", (code) => reject(new Error(`the mock exited (${code}) before it was ready:\n${out}`)));
});
mock.stdout.resume();
process.on("exit", () => mock.kill("SIGTERM"));

/** The mock's peak RSS (VmHWM) in MB since the last reset, and a reset (Linux; null elsewhere). */
const mockPeak = {
  read() {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${mock.pid}/status`, "utf8"))?.[1];
      return kb ? Math.round(Number(kb) / 1024) : null;
    } catch {
      return null;
    }
  },
  reset() {
    try {
      writeFileSync(`/proc/${mock.pid}/clear_refs`, "5");
    } catch {}
  },
};
const phases = [];
function mockPhase(label) {
  phases.push(`${label}: ${mockPeak.read() ?? "n/a"} MB`);
  mockPeak.reset();
}
mockPhase("mock after startup (history indexed)");

// --- Changes through the mock's own API ---------------------------------------------------------------------------
const client = createClient({ baseUrl: base, ...credentials, scope: ["Shop", "TERP"] });

/** Buys `count` tickets, as many per order as the article allows, in the soonest slots with seats. */
async function buy(count) {
  const bought = [];
  for await (const summary of paginate(client.shop.listEvents, { params: { query: { limit: 50 } } })) {
    if (!summary.available) continue;
    const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId: summary.id } } });
    const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
    for (const slot of [...event.slots].sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt))) {
      let seats = slot.available;
      const most = Math.min(10, article?.maxPerOrder ?? 0);
      while (article && seats >= most && bought.length < count) {
        const quantity = Math.min(most, count - bought.length);
        const { data: cart } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
        const path = { path: { id: cart.id } };
        await client.shop.addCartItem.orThrow({
          params: path,
          body: { articleId: article.id, slotId: slot.id, quantity },
        });
        await client.shop.setCartCustomer.orThrow({
          params: path,
          body: { firstName: "Bench", lastName: "Buyer", email: "bench@example.com" },
        });
        await client.shop.setCartPaymentProvider.orThrow({
          params: path,
          body: { paymentProviderId: "card" },
        });
        const { data } = await client.shop.checkoutCart.orThrow({
          params: path,
          body: { paymentMethod: { cardNumber: CARD } },
        });
        if (data.status !== "completed") throw new Error(`checkout ${data.status}`);
        for (const t of data.order.tickets)
          bought.push({ quicode: t.quicode, eventId: event.id, startsAt: slot.startsAt });
        seats -= quantity;
      }
      if (bought.length >= count) return bought;
    }
  }
  throw new Error(`only ${bought.length} of ${count} tickets could be bought`);
}

/** Admits tickets at an open entry gate of their event, the mock's clock moved to each slot's start. */
async function admit(tickets) {
  const gates = await paginate(client.entrance.listGates).all();
  let admitted = 0;
  const bySlot = Map.groupBy(tickets, (t) => t.startsAt);
  for (const startsAt of [...bySlot.keys()].sort((a, b) => Date.parse(a) - Date.parse(b))) {
    const res = await fetch(`${base}/__mock/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: startsAt }),
    });
    if (!res.ok) throw new Error(`clock: ${res.status} ${await res.text()}`);
    for (const t of bySlot.get(startsAt)) {
      const gate = gates.find(
        (g) => g.eventIds.includes(t.eventId) && g.status === "open" && g.direction !== "exit",
      );
      if (!gate) throw new Error(`no open entry gate for ${t.eventId}`);
      const { data } = await client.entrance.scanQuicode.orThrow({
        params: { path: { gateId: gate.id } },
        body: { quicode: t.quicode },
      });
      if (data.result === "admitted") admitted++;
    }
  }
  return admitted;
}

// --- The runs -----------------------------------------------------------------------------------------------------
/** One run in a child process (`format` "baseline" runs warehouse-baseline.ts, which writes no file). */
function run(label, format, out, state = "-", top = "-") {
  return new Promise((resolve, reject) => {
    const args =
      format === "baseline"
        ? [join(here, "warehouse-baseline.ts"), base, String(PAGE_SIZE)]
        : [join(here, "warehouse-run.ts"), base, format, out, state, top, String(PAGE_SIZE)];
    const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
    let text = "";
    child.stdout.on("data", (d) => {
      text += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) return reject(new Error(`${label} exited ${code}`));
      const r = JSON.parse(text.trim().split("\n").at(-1));
      r.fileMB = out ? +(statSync(out).size / 1048576).toFixed(1) : 0;
      r.mockPeakMB = mockPeak.read();
      mockPeak.reset();
      console.log(
        `${label.padEnd(36)} ${String(r.rows).padStart(8)} rows  ${String(r.rowsPerSecond).padStart(7)} rows/s  peak RSS ${String(r.peakRssMB).padStart(4)} MB  file ${String(r.fileMB).padStart(5)} MB  (mock peak RSS ${r.mockPeakMB ?? "n/a"} MB)`,
      );
      resolve(r);
    });
  });
}

try {
  const touch = Number(values.touch);
  let t0 = performance.now();
  const early = await buy(Math.floor(touch / 2));
  console.log(
    `changes: ${early.length} tickets bought through the shop API before the runs (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  mockPhase("mock while buying");

  const baseline = await run("0. baseline: fetch + JSON.parse, drop", "baseline", "");
  const ndjson = await run("1. NDJSON, full", "ndjson", join(dir, "t.ndjson"));
  const tenth = await run(
    "2. Parquet, first 10 %",
    "parquet",
    join(dir, "t10.parquet"),
    "-",
    String(Math.floor(ndjson.rows / 10)),
  );
  const state = join(dir, "tickets.state.json");
  const full = await run(
    "3. Parquet, full (incremental, 1st)",
    "parquet",
    join(dir, "t-full.parquet"),
    state,
  );

  t0 = performance.now();
  const late = await buy(touch - early.length);
  const t1 = performance.now();
  const admitted = await admit(early);
  const seconds = (from) => ((performance.now() - from) / 1000).toFixed(1);
  console.log(
    `changes: ${late.length} new tickets bought, ${admitted} earlier ones admitted at a gate (${seconds(t0)} s; the admissions ${seconds(t1)} s, ${Math.round(early.length / ((performance.now() - t1) / 1000))} scans/s with ${early.length + late.length} shop tickets sold)`,
  );
  mockPhase("mock while changing rows");
  const incremental = await run(
    "4. Parquet, incremental (changed)",
    "parquet",
    join(dir, "t-inc.parquet"),
    state,
  );

  const check = spawnSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import { DuckDBInstance } from "@duckdb/node-api";
     const db = await (await DuckDBInstance.create(":memory:")).connect();
     const q = async (f) => (await db.runAndReadAll("SELECT count(*)::INTEGER AS n, count(DISTINCT TicketId)::INTEGER AS k, count(*) FILTER (WHERE Status = 'used')::INTEGER AS used FROM '" + f + "'")).getRowObjectsJson()[0];
     console.log(JSON.stringify({ full: await q(${JSON.stringify(join(dir, "t-full.parquet"))}), incremental: await q(${JSON.stringify(join(dir, "t-inc.parquet"))}) }));`,
    ],
    { cwd: join(here, ".."), encoding: "utf8" },
  );
  console.log(`DuckDB reads (rows n, distinct keys k, used): ${check.stdout.trim() || check.stderr.trim()}`);
  console.log(phases.join("; "));
  const vsBaseline = (r) =>
    `peak RSS ${(r.peakRssMB / baseline.peakRssMB).toFixed(2)}×, rows/s ${(r.rowsPerSecond / baseline.rowsPerSecond).toFixed(2)}×`;
  console.log(
    `ratios vs the baseline (same run): NDJSON ${vsBaseline(ndjson)}; Parquet ${vsBaseline(full)}; Parquet 10 % peak RSS ${(tenth.peakRssMB / baseline.peakRssMB).toFixed(2)}×`,
  );
  console.log(
    `ratios vs NDJSON (same run): Parquet rows/s ${(full.rowsPerSecond / ndjson.rowsPerSecond).toFixed(2)}×, file size ${(full.fileMB / ndjson.fileMB).toFixed(2)}×, peak RSS ${(full.peakRssMB / ndjson.peakRssMB).toFixed(2)}×; Parquet peak RSS full / 10 %: ${(full.peakRssMB / tenth.peakRssMB).toFixed(2)}×; incremental exported ${incremental.rows} rows after ${touch} changed (${admitted} admitted + ${late.length} new)`,
  );
} finally {
  mock.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
