#!/usr/bin/env node
// Webhook inbox benchmark (Node 24; run by `pnpm bench`, or `node bench/inbox.mjs [--full]` from packages/sdk).
// Per store (SQLite file in WAL mode with synchronous=FULL; PostgreSQL with fsync on, started by
// scripts/test-postgres.mjs or ENTRADA_TEST_DATABASE_URL):
// 1. acknowledgements: `inbox.handler(request)` on signed 1 KB deliveries, one at a time (latency, p50/p99) and
//    16 at once (throughput), beside a bare INSERT of the same row into a table of the same shape, through the same
//    driver and settings, in the same run: the ratio is what verification, the unique check and the answer cost;
// 2. the worker with a no-op handler: deliveries processed per second (claim, run, mark done), 8 at once.
// Inbox and bare INSERT alternate in slices of 50 (the same load for both); the figures are medians of the rounds.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { startTestPostgres } from "../../../scripts/test-postgres.mjs";
import { postgresInboxStore } from "../src/stores/postgres.ts";
import { sqliteInboxStore } from "../src/stores/sqlite.ts";
import { createWebhookInbox, signWebhook } from "../src/webhooks/index.ts";

const full = process.argv.includes("--full");
const ROUNDS = full ? 5 : 3;
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const body = JSON.stringify({
  type: "cart.completed",
  timestamp: new Date().toISOString(),
  data: { order: { id: "ord_bench", note: "x".repeat(900) } },
});
let serial = 0;

async function deliveries(n) {
  const now = Math.floor(Date.now() / 1000);
  return Promise.all(
    Array.from({ length: n }, async () => {
      const id = `msg_${process.pid}_${serial++}`;
      return { id, headers: await signWebhook({ id, timestamp: now, body, secret: SECRET }) };
    }),
  );
}

const request = ({ headers }) =>
  new Request("http://bench/webhooks", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs `op` over `items`, `concurrency` at a time; the latencies (ms) and the seconds it took. */
async function run(items, concurrency, op) {
  const latencies = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++];
        const t = performance.now();
        await op(item);
        latencies.push(performance.now() - t);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

/** Alternates `a` and `b` in slices of 50, so both see the same load on a shared machine; figures per side. */
async function paired(itemsA, itemsB, concurrency, a, b) {
  const sides = [
    { latencies: [], seconds: 0 },
    { latencies: [], seconds: 0 },
  ];
  for (let at = 0; at < itemsA.length; at += 50) {
    for (const [k, items, op] of [
      [0, itemsA, a],
      [1, itemsB, b],
    ]) {
      const r = await run(items.slice(at, at + 50), concurrency, op);
      sides[k].latencies.push(...r.latencies);
      sides[k].seconds += r.seconds;
    }
  }
  return sides.map(({ latencies, seconds }) => {
    latencies.sort((x, y) => x - y);
    return {
      perSecond: latencies.length / seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
    };
  });
}

async function bench(name, { store, bareInsert, n }) {
  const inbox = createWebhookInbox({ secrets: SECRET, store, handle: () => {}, log: () => {} });
  const rounds = { inbox1: [], bare1: [], inbox16: [], bare16: [] };
  // Warm-up (JIT, connections, table pages).
  await run(await deliveries(100), 4, async (d) => (await inbox.handler(request(d))).status);
  for (let round = 0; round < ROUNDS; round++) {
    for (const concurrency of [1, 16]) {
      const forInbox = (await deliveries(n)).map(request);
      const forBare = await deliveries(n);
      const [viaInbox, bare] = await paired(
        forInbox,
        forBare,
        concurrency,
        async (r) => {
          const answer = await inbox.handler(r);
          if (answer.status !== 202) throw new Error(`answered ${answer.status}`);
        },
        (d) => bareInsert(d.id),
      );
      rounds[`inbox${concurrency}`].push(viaInbox);
      rounds[`bare${concurrency}`].push(bare);
    }
  }
  const pick = (key, field) => median(rounds[key].map((r) => r[field]));
  const ratio = (key) =>
    median(rounds[`inbox${key}`].map((r, k) => r.perSecond / rounds[`bare${key}`][k].perSecond));
  console.log(`\n${name}: acknowledgements (${n} per round, ${ROUNDS} rounds, medians)`);
  for (const c of [1, 16]) {
    console.log(
      `  ${String(c).padStart(2)} at once: inbox ${pick(`inbox${c}`, "perSecond").toFixed(0)}/s ` +
        `(p50 ${pick(`inbox${c}`, "p50").toFixed(2)} ms, p99 ${pick(`inbox${c}`, "p99").toFixed(2)} ms)` +
        ` · bare INSERT ${pick(`bare${c}`, "perSecond").toFixed(0)}/s (p99 ${pick(`bare${c}`, "p99").toFixed(2)} ms)` +
        ` · inbox/bare ${(ratio(c) * 100).toFixed(1)} %`,
    );
  }
  // The worker drains what the rounds stored (plus the warm-up) with a no-op handler.
  const pending = (await inbox.stats()).pending;
  const stop = new AbortController();
  const started = performance.now();
  const worker = inbox.start({ concurrency: 8, signal: stop.signal, pollMs: 5 });
  while ((await inbox.stats()).done < pending) await new Promise((r) => setTimeout(r, 20));
  const seconds = (performance.now() - started) / 1000;
  stop.abort();
  await worker;
  console.log(
    `  worker, no-op handler, 8 at once: ${(pending / seconds).toFixed(0)} deliveries/s (${pending})`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "entrada-inbox-bench-"));
const SHAPE = `(id TEXT PRIMARY KEY, type TEXT NOT NULL, body TEXT NOT NULL, received_at BIGINT NOT NULL,
  status TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, due_at BIGINT, owner TEXT, last_error TEXT,
  finished_at BIGINT)`;
try {
  const file = join(dir, "inbox.sqlite");
  const store = sqliteInboxStore(file);
  const bare = new DatabaseSync(join(dir, "bare.sqlite"));
  bare.exec(`PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; CREATE TABLE bare ${SHAPE};`);
  const insert = bare.prepare(
    "INSERT INTO bare (id, type, body, received_at, status, due_at) VALUES (?, ?, ?, ?, 'pending', ?)",
  );
  await bench("SQLite (node:sqlite, WAL, synchronous=FULL)", {
    store,
    n: full ? 3000 : 300,
    bareInsert: async (id) => insert.run(id, "cart.completed", body, Date.now(), Date.now()),
  });
  bare.close();
  await store.close();

  const server = await startTestPostgres({ durable: true });
  const pool = new pg.Pool({ connectionString: server.url, max: 16 });
  try {
    await pool.query(`CREATE TABLE bare ${SHAPE}`);
    await bench("PostgreSQL (pg Pool of 16, fsync on)", {
      store: postgresInboxStore(pool),
      n: full ? 3000 : 300,
      bareInsert: (id) =>
        pool.query(
          "INSERT INTO bare (id, type, body, received_at, status, due_at) VALUES ($1, $2, $3, $4, 'pending', $4)",
          [id, "cart.completed", body, Date.now()],
        ),
    });
  } finally {
    await pool.end();
    await server.stop();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
