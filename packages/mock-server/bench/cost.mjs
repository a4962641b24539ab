#!/usr/bin/env node
// What one request costs each server, split where the time goes: the built mock (`dist/cli.js`), the bare node:http
// server replaying the mock's captured answers (bench/bare-server.mjs, the ceiling of bench/run.mjs) and the mock's
// node entry over an engine that costs nothing (bench/entry-server.mjs), under the same autocannon load in
// interleaved rounds. Per request, from /proc (every thread of the server): main-thread user and system CPU, CPU of
// the other threads (V8's GC and compiler helpers), voluntary and forced context switches of the main thread (per
// 1000 requests), and the load generator's own CPU. Per-round medians; ratios against bare from the same round.
//   node bench/cost.mjs     (COST_ROUNDS=5 COST_DURATION=2 COST_CONNECTIONS=10 COST_CASES=get,post BENCH_PORT_BASE)
// COST_NODE_FLAGS="--flag …" starts the mock with V8/Node flags (e.g. --single-threaded-gc, --max-semi-space-size=1).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { cartPairRequests } from "./cart-pair.mjs";
import { ensureFreshDist } from "./fresh-dist.mjs";

const root = join(import.meta.dirname, "..");
const rounds = Number(process.env.COST_ROUNDS ?? 5);
const duration = Number(process.env.COST_DURATION ?? 2);
const connections = Number(process.env.COST_CONNECTIONS ?? 10);
const kinds = (process.env.COST_CASES ?? "get,post").split(",");
const nodeFlags = (process.env.COST_NODE_FLAGS ?? "").split(" ").filter(Boolean);
let port = Number(process.env.BENCH_PORT_BASE ?? 4300 + Math.floor(Math.random() * 500));
const work = mkdtempSync(join(tmpdir(), "entrada-cost-"));
const seedPath = join(work, "seed.json");
const capturedPath = join(work, "captured.json");
writeFileSync(seedPath, JSON.stringify({ shop: { slotCapacity: 100_000_000, holdDurationSeconds: 86_400 } }));

const children = [];
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function start(args) {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, args(String(port++)), { stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  for (let i = 0; ; i++) {
    try {
      await (await fetch(`${url}/__mock`)).arrayBuffer();
      return { url, pid: child.pid };
    } catch {
      if (i > 6000) throw new Error(`${args("0").join(" ")} did not start`);
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

/** CPU seconds and context switches of every thread of a process, by thread id. */
function threads(pid) {
  const out = new Map();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1].split(" ");
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8");
      const count = (name) => Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
      out.set(tid, {
        user: Number(fields[11]) / 100,
        system: Number(fields[12]) / 100,
        voluntary: count("voluntary_ctxt_switches"),
        forced: count("nonvoluntary_ctxt_switches"),
      });
    } catch {} // a thread that ended meanwhile
  }
  return out;
}

/** What the server's threads did between two readings, per request (µs, switches per 1000 requests). */
function cost(pid, before, after, requests) {
  const main = (m) => m.get(String(pid)) ?? { user: 0, system: 0, voluntary: 0, forced: 0 };
  const cpu = (m) => [...m.values()].reduce((s, t) => s + t.user + t.system, 0);
  const [b, a] = [main(before), main(after)];
  const perRequest = (x) => (x / requests) * 1e6;
  return {
    total: perRequest(cpu(after) - cpu(before)),
    user: perRequest(a.user - b.user),
    system: perRequest(a.system - b.system),
    others: perRequest(cpu(after) - a.user - a.system - (cpu(before) - b.user - b.system)),
    voluntary: ((a.voluntary - b.voluntary) / requests) * 1000,
    forced: ((a.forced - b.forced) / requests) * 1000,
  };
}

ensureFreshDist(root);
// The mock, its token and the item the POST case adds; then the answers the other two servers replay.
const mock = await start((p) => [
  ...nodeFlags,
  join(root, "dist/cli.js"),
  ...["--port", p, "--seed", seedPath, "--rate-limit", "off", "--no-webhooks"],
]);
const { access_token } = await (
  await fetch(`${mock.url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials&scope=Shop",
  })
).json();
const headers = { authorization: `Bearer ${access_token}`, "accept-language": "de-CH" };
const json = { ...headers, "content-type": "application/json" };
const get = (path) => fetch(`${mock.url}${path}`, { headers });
const first = (await (await get("/shop/v1/discovery/events?limit=1")).json()).items[0];
const event = await (await get(`/shop/v1/discovery/events/${first.id}`)).json();
const item = JSON.stringify({
  articleId: event.pricingAssortments[0].articles[0].id,
  slotId: event.slots[0].id,
  quantity: 1,
});
const sent = async (method, path, response) => {
  const kept = {};
  response.headers.forEach((value, name) => {
    if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) kept[name] = value;
  });
  return { method, path, status: response.status, headers: kept, body: await response.text() };
};
const post = (path, body) => fetch(`${mock.url}${path}`, { method: "POST", headers: json, body });
const list = await sent("GET", "/shop/v1/discovery/events", await get("/shop/v1/discovery/events"));
const cart = await sent("POST", "/shop/v1/cart", await post("/shop/v1/cart", "{}"));
const added = await sent(
  "POST",
  "/shop/v1/cart/*/items",
  await post(`/shop/v1/cart/${JSON.parse(cart.body).id}/items`, item),
);
writeFileSync(capturedPath, JSON.stringify([list, cart, added]));

const servers = {
  mock,
  bare: await start((p) => [join(root, "bench/bare-server.mjs"), p, capturedPath]),
  entry: await start((p) => [join(root, "bench/entry-server.mjs"), p, capturedPath]),
};
const load = {
  get: (url) => ({ url: `${url}/shop/v1/discovery/events`, headers }),
  post: (url) => ({ url, requests: cartPairRequests(json, item) }),
};
const run = (options, seconds) =>
  new Promise((resolve, reject) =>
    autocannon({ connections, duration: seconds, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    ),
  );

for (const kind of kinds) for (const server of Object.values(servers)) await run(load[kind](server.url), 1);
const names = Object.keys(servers);
const samples = {};
for (let round = 0; round < rounds; round++) {
  for (const kind of kinds) {
    for (const name of names.map((_, i) => names[(i + round) % names.length])) {
      const { url, pid } = servers[name];
      const before = threads(pid);
      const client = process.cpuUsage();
      const result = await run(load[kind](url), duration);
      const clientCpu = process.cpuUsage(client);
      const requests = result.requests.total;
      if (result.errors + result.non2xx > 0) throw new Error(`${name} ${kind}: errors or non-2xx answers`);
      samples[`${kind} ${name}`] ??= [];
      samples[`${kind} ${name}`].push({
        rps: result.requests.average,
        ...cost(pid, before, threads(pid), requests),
        client: (clientCpu.user + clientCpu.system) / requests,
      });
    }
  }
}

const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];
const fmt = (n, d = 1) => n.toFixed(d);
console.log(
  `${rounds} interleaved rounds of ${duration}s × ${connections} connections; load average ${readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ")}\n`,
);
console.log(
  "| case | server | req/s | CPU µs/req | main user | main system | other threads | voluntary / forced switches per 1000 req | client CPU µs/req | share of bare: req/s · per CPU-s (median of rounds) |",
);
console.log("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|");
for (const kind of kinds) {
  const bare = samples[`${kind} bare`];
  for (const name of names) {
    const s = samples[`${kind} ${name}`];
    const m = (key) => median(s.map((x) => x[key]));
    const share = (key, invert) =>
      median(s.map((x, i) => (invert ? bare[i][key] / x[key] : x[key] / bare[i][key]) * 100));
    console.log(
      `| ${kind} | ${name} | ${fmt(m("rps"), 0)} | ${fmt(m("total"))} | ${fmt(m("user"))} | ${fmt(m("system"))} | ${fmt(m("others"))} | ${fmt(m("voluntary"), 0)} / ${fmt(m("forced"), 0)} | ${fmt(m("client"))} | ${name === "bare" ? "" : `${fmt(share("rps"))} % · ${fmt(share("total", true))} %`} |`,
    );
  }
}
process.exit(0);
