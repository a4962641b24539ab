#!/usr/bin/env node
// Benchmarks the standalone mock server against Prism 5.14.2 on the same document, same load generator,
// same run: GET event discovery and POST cart + item, on the real document and on one grown to several
// hundred operations; start-up time and resident memory. Loopback only, a few seconds per case.
//   pnpm --filter @entrada/mock-server bench            (BENCH_DURATION=3 BENCH_CONNECTIONS=10 BENCH_WARMUP=5)
// Next to them a bare node:http server replays the mock's exact answers (bench/bare-server.mjs): the ceiling.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import autocannon from "autocannon";
import { cartPairRequests } from "./cart-pair.mjs";
import { ensureFreshDist } from "./fresh-dist.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..");
const duration = Number(process.env.BENCH_DURATION ?? 2);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const skipPrism = process.env.BENCH_SKIP_PRISM === "1";
const docPath = join(root, "node_modules/@entrada/openapi/generated/openapi.json");
const work = mkdtempSync(join(tmpdir(), "entrada-bench-"));

ensureFreshDist(root);

// A seed with room for every cart the POST case creates. BENCH_CART_TTL_SECONDS=<n> models a long-running server
// in seconds: holds and carts lapse after n s of (mock = real) time and abandoned carts are dropped n s later.
const cartTtl = Number(process.env.BENCH_CART_TTL_SECONDS ?? 0);
const seedPath = join(work, "seed.json");
writeFileSync(
  seedPath,
  JSON.stringify({
    shop:
      cartTtl > 0
        ? {
            slotCapacity: 100_000_000,
            holdDurationSeconds: cartTtl,
            cartTtlSeconds: cartTtl,
            cartRetentionSeconds: cartTtl,
          }
        : { slotCapacity: 100_000_000, holdDurationSeconds: 86_400 },
  }),
);

// The document grown to several hundred operations: synthetic resources with parameters, bodies and refs.
const doc = JSON.parse(readFileSync(docPath, "utf8"));
const bigDoc = structuredClone(doc);
const extra = 100;
for (let i = 0; i < extra; i++) {
  const ref = { $ref: "#/components/schemas/Customer" };
  bigDoc.paths[`/synthetic/v1/resource${i}`] = {
    get: {
      operationId: `listResource${i}`,
      tags: ["synthetic"],
      security: [{ oauth2: ["Shop"] }],
      parameters: [{ $ref: "#/components/parameters/Limit" }, { $ref: "#/components/parameters/Cursor" }],
      responses: {
        200: { description: "ok", content: { "application/json": { schema: { type: "object" } } } },
      },
    },
    post: {
      operationId: `createResource${i}`,
      tags: ["synthetic"],
      security: [{ oauth2: ["Shop"] }],
      requestBody: { required: true, content: { "application/json": { schema: ref } } },
      responses: { 201: { description: "ok", content: { "application/json": { schema: ref } } } },
    },
  };
  bigDoc.paths[`/synthetic/v1/resource${i}/{itemId}`] = {
    get: {
      operationId: `getResource${i}`,
      tags: ["synthetic"],
      security: [{ oauth2: ["Shop"] }],
      parameters: [{ name: "itemId", in: "path", required: true, schema: { type: "string" } }],
      responses: { 200: { description: "ok", content: { "application/json": { schema: ref } } } },
    },
  };
}
const bigPath = join(work, "openapi-big.json");
writeFileSync(bigPath, JSON.stringify(bigDoc));
const count = (d) =>
  Object.values(d.paths).reduce(
    (n, item) =>
      n + Object.keys(item).filter((k) => ["get", "post", "put", "patch", "delete"].includes(k)).length,
    0,
  );

/** Installs Prism 5.14.2 through npx (once) and finds its entry point and a Node 20 to run it. */
function locatePrism() {
  const path = ["/usr/local/bin", "/usr/bin", "/bin", process.env.PATH].join(":");
  execFileSync("npx", ["-y", "@stoplight/prism-cli@5.14.2", "--version"], {
    env: { ...process.env, PATH: path },
    stdio: "ignore",
  });
  const cache = join(process.env.npm_config_cache ?? join(process.env.HOME ?? "/root", ".npm"), "_npx");
  for (const dir of readdirSync(cache)) {
    const pkg = join(cache, dir, "node_modules/@stoplight/prism-cli/package.json");
    if (existsSync(pkg) && JSON.parse(readFileSync(pkg, "utf8")).version === "5.14.2") {
      const node =
        process.env.PRISM_NODE ??
        ["/usr/local/bin/node", "/usr/bin/node"].find(
          (n) => existsSync(n) && execFileSync(n, ["--version"]).toString().startsWith("v20"),
        ) ??
        "node";
      return { prismBin: join(dirname(pkg), "dist/index.js"), prismNode: node };
    }
  }
  throw new Error("Prism 5.14.2 not found in the npx cache");
}
const { prismBin, prismNode } = skipPrism ? { prismBin: "", prismNode: "" } : locatePrism();

// BENCH_PORT_BASE=<n> puts the servers on n, n+1, … (a shared machine hands out port ranges).
let nextPort = Number(process.env.BENCH_PORT_BASE ?? 4300 + Math.floor(Math.random() * 500));
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/**
 * CPU seconds a process has used (user + system, /proc). Requests per CPU-second of the server is what a request
 * costs, whatever share of a loaded machine the server got during the sample.
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function rssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return Number.NaN;
  }
}

/** Sum RSS over a process and its descendants (npx → node for Prism). */
function treeRssMb(pid) {
  let total = rssMb(pid);
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    for (const kid of kids) total += treeRssMb(Number(kid));
  } catch {}
  return total;
}

async function start(kind, document, dist = join(root, "dist")) {
  const port = nextPort++;
  const url = `http://127.0.0.1:${port}`;
  let child;
  if (kind === "entrada") {
    const args = [
      join(dist, "cli.js"),
      "--port",
      String(port),
      "--seed",
      seedPath,
      "--rate-limit",
      "off",
      "--no-webhooks",
    ];
    if (document !== docPath) args.push("--openapi", document);
    child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "pipe"] });
  } else if (kind === "bare") {
    child = spawn(process.execPath, [join(here, "bare-server.mjs"), String(port), capturedPath], {
      stdio: ["ignore", "pipe", "pipe"],
    });
  } else if (kind === "msw") {
    child = spawn(process.execPath, [join(here, "msw-server.mjs"), String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
  } else {
    // Prism 5.14.2 runs on the machine's Node 20 (it refuses newer majors), spawned directly (no npx wrapper),
    // so start-up and memory are Prism's own.
    child = spawn(
      prismNode,
      [prismBin, "mock", document, "-p", String(port), "-h", "127.0.0.1", "--errors", "false"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
  }
  children.add(child);
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const started = performance.now();
  const probe = kind === "prism" ? "/shop/v1/system/configuration" : "/__mock";
  for (;;) {
    if (performance.now() - started > 60_000) throw new Error(`${kind} did not start:\n${output}`);
    try {
      const r = await fetch(`${url}${probe}`, {
        headers: { authorization: "Bearer x", "accept-language": "de-CH" },
      });
      await r.arrayBuffer();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  const startupMs = performance.now() - started;
  return {
    url,
    startupMs,
    pid: child.pid,
    rss: () => treeRssMb(child.pid),
    stop: () => {
      children.delete(child);
      try {
        child.kill(kind === "prism" ? "SIGKILL" : "SIGTERM");
      } catch {}
    },
  };
}

async function token(url) {
  const r = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
      "accept-language": "de-CH",
    },
    body: "grant_type=client_credentials&scope=Shop",
  });
  const body = await r.json();
  return body.access_token ?? "prism-accepts-any-token";
}

async function discover(url, authorization) {
  // Node's fetch sends "Accept-Language: *", which the document's header schema (minLength 2) rejects on Prism.
  const headers = { authorization, "accept-language": "de-CH" };
  const list = await (await fetch(`${url}/shop/v1/discovery/events?limit=1`, { headers })).json();
  const event = await (
    await fetch(`${url}/shop/v1/discovery/events/${list.items?.[0]?.id}`, { headers })
  ).json();
  if (!event.slots) throw new Error(`${url}: no event to buy: ${JSON.stringify(event).slice(0, 300)}`);
  return { articleId: event.pricingAssortments[0].articles[0].id, slotId: event.slots[0].id };
}

function once(options, seconds) {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration: seconds, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

async function getCase(server) {
  const auth = { authorization: `Bearer ${await token(server.url)}`, "accept-language": "de-CH" };
  return { url: `${server.url}/shop/v1/discovery/events`, headers: auth };
}

async function postCase(server) {
  const auth = {
    authorization: `Bearer ${await token(server.url)}`,
    "content-type": "application/json",
    "accept-language": "de-CH",
  };
  const { articleId, slotId } = await discover(server.url, auth.authorization);
  // Each round creates a cart and adds an item to it; both servers are counted per request the same way.
  return {
    url: server.url,
    requests: cartPairRequests(auth, JSON.stringify({ articleId, slotId, quantity: 1 })),
  };
}

/**
 * Records what the mock answers to each benchmarked request (status, headers, body), for the bare node:http server
 * that replays exactly that: the ceiling the mock is measured against in the same run.
 */
const capturedPath = join(work, "captured.json");
async function capture(server) {
  const authorization = `Bearer ${await token(server.url)}`;
  const sent = async (method, path, response) => {
    const headers = {};
    response.headers.forEach((value, name) => {
      if (!["date", "connection", "keep-alive", "transfer-encoding"].includes(name)) headers[name] = value;
    });
    return { method, path, status: response.status, headers, body: await response.text() };
  };
  const headers = { authorization, "accept-language": "de-CH" };
  const json = { ...headers, "content-type": "application/json" };
  const { articleId, slotId } = await discover(server.url, authorization);
  const list = await sent(
    "GET",
    "/shop/v1/discovery/events",
    await fetch(`${server.url}/shop/v1/discovery/events`, { headers }),
  );
  const cartResponse = await fetch(`${server.url}/shop/v1/cart`, {
    method: "POST",
    headers: json,
    body: "{}",
  });
  const cart = await sent("POST", "/shop/v1/cart", cartResponse);
  const cartId = JSON.parse(cart.body).id;
  const item = await sent(
    "POST",
    "/shop/v1/cart/*/items",
    await fetch(`${server.url}/shop/v1/cart/${cartId}/items`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ articleId, slotId, quantity: 1 }),
    }),
  );
  writeFileSync(capturedPath, JSON.stringify([list, cart, item]));
}

const rows = [];
const record = (server, docName, label, r) => rows.push({ server, doc: docName, case: label, ...r });

/** Median spawn → first answered request over n fresh processes (start-up is noisy on a shared machine). */
async function startupMedian(kind, document, n) {
  const samples = [];
  for (let i = 0; i < n; i++) {
    const server = await start(kind, document);
    samples.push(server.startupMs);
    server.stop();
    await new Promise((r) => setTimeout(r, 150));
  }
  samples.sort((a, b) => a - b);
  return samples[samples.length >> 1];
}

const docName = `${count(doc)} ops`;
const bigName = `${count(bigDoc)} ops`;
const meta = {};
console.log(
  `${rounds} interleaved rounds of ${duration}s × ${connections} connections per case (median); documents: ${docName}, ${bigName}\n`,
);
// All servers run side by side and the cases are measured in interleaved rounds (rotating order), so every
// server sees the same machine load; each figure is the median over the rounds.
// BENCH_BASE_DIST=<dir> also runs an earlier build (a copy of its dist/, next to a node_modules) in the same rounds:
// an A/B of two builds under the same load, reported as the "entrada (base)" rows.
const baseDist = process.env.BENCH_BASE_DIST;
const targets = [
  { name: "entrada/small", kind: "entrada", document: docPath, doc: docName },
  { name: "bare/small", kind: "bare", document: docPath, doc: docName },
  ...(baseDist
    ? [
        {
          name: "base/small",
          kind: "entrada",
          label: "entrada (base)",
          dist: baseDist,
          document: docPath,
          doc: docName,
        },
      ]
    : []),
  { name: "entrada/big", kind: "entrada", document: bigPath, doc: bigName },
  { name: "msw/small", kind: "msw", document: docPath, doc: docName },
  ...(skipPrism
    ? []
    : [
        { name: "prism/small", kind: "prism", document: docPath, doc: docName },
        { name: "prism/big", kind: "prism", document: bigPath, doc: bigName },
      ]),
];
// BENCH_TARGETS=entrada/small,bare/small measures only those (quick comparisons; the mock must come first).
const only = process.env.BENCH_TARGETS?.split(",");
if (only) targets.splice(0, targets.length, ...targets.filter((t) => only.includes(t.name)));
const cases = [];
for (const target of targets) {
  if (target.kind === "bare") await capture(targets[0].server);
  target.server = await start(target.kind, target.document, target.dist);
  meta[target.name] = { startupMs: target.server.startupMs, idle: target.server.rss() };
  // The bare server answers the same requests the mock's cases send (it has no token endpoint of its own).
  const like = (label) => cases.find((c) => c.target === targets[0] && c.label === label).options;
  const retarget = (options) => ({
    ...options,
    url: options.url.replace(targets[0].server.url, target.server.url),
  });
  cases.push({
    target,
    label: "GET /shop/v1/discovery/events",
    options:
      target.kind === "bare" ? retarget(like("GET /shop/v1/discovery/events")) : await getCase(target.server),
    samples: [],
  });
  if (target.kind !== "msw") {
    cases.push({
      target,
      label: "POST cart + item",
      options: target.kind === "bare" ? retarget(like("POST cart + item")) : await postCase(target.server),
      samples: [],
    });
  }
}
// Warm-up: lazily compiled validators and the JIT. One second was too short for the mock: its GET cost fell from
// 35 to 27 µs of CPU per request over its first ten seconds under load (TurboFan still compiling), so the first
// rounds measured a server that was not yet in its steady state. BENCH_WARMUP=<s> per case (default 5).
const warmup = Number(process.env.BENCH_WARMUP ?? 5);
for (const c of cases) await once(c.options, warmup);
for (let round = 0; round < rounds; round++) {
  const order = cases.map((_, i) => cases[(i + round * 3) % cases.length]);
  for (const c of order) {
    const before = cpuSeconds(c.target.server.pid);
    const result = await once(c.options, duration);
    result.serverCpu = cpuSeconds(c.target.server.pid) - before;
    c.samples.push(result);
  }
}
const median = (values) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[sorted.length >> 1];
};
for (const c of cases) {
  record(c.target.label ?? c.target.kind, c.target.doc, c.label, {
    rps: median(c.samples.map((r) => r.requests.average)),
    perCpu: median(c.samples.map((r) => r.requests.total / r.serverCpu)),
    p99: median(c.samples.map((r) => r.latency.p99)),
    non2xx: c.samples.reduce((n, r) => n + r.non2xx, 0),
    errors: c.samples.reduce((n, r) => n + r.errors, 0),
  });
}
for (const target of targets) {
  meta[target.name].after = target.server.rss();
  target.server.stop();
}

const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : "–");
console.log(
  "| server | document | case | req/s | req per server CPU-s | p99 ms | non-2xx | errors | × Prism (req/s) |",
);
console.log("|---|---|---|---:|---:|---:|---:|---:|---:|");
for (const row of rows) {
  const prism = rows.find((r) => r.server === "prism" && r.doc === row.doc && r.case === row.case);
  const ratio = prism && row.server !== "prism" ? `${fmt(row.rps / prism.rps, 1)}×` : "";
  console.log(
    `| ${row.server} | ${row.doc} | ${row.case} | ${fmt(row.rps)} | ${fmt(row.perCpu)} | ${fmt(row.p99, 1)} | ${row.non2xx} | ${row.errors} | ${ratio} |`,
  );
}
const pick = (server, doc, kase) =>
  rows.find((r) => r.server === server && r.doc === doc && r.case === kase)?.rps ?? Number.NaN;
console.log("\n| figure | value |\n|---|---:|");
for (const kase of ["GET /shop/v1/discovery/events", "POST cart + item"]) {
  console.log(
    `| entrada ${bigName} / ${docName}, ${kase} | ${fmt((pick("entrada", bigName, kase) / pick("entrada", docName, kase)) * 100, 1)} % |`,
  );
  if (!skipPrism)
    console.log(
      `| prism ${bigName} / ${docName}, ${kase} | ${fmt((pick("prism", bigName, kase) / pick("prism", docName, kase)) * 100, 1)} % |`,
    );
}
const pickCpu = (server, kase) =>
  rows.find((r) => r.server === server && r.doc === docName && r.case === kase)?.perCpu ?? Number.NaN;
/** One server's req/s over another's, per round (both ran in the same round): median and range, in %. */
const perRound = (a, b, kase) => {
  const samples = (t) => cases.find((c) => c.target === t && c.label === kase)?.samples ?? [];
  const sa = samples(a);
  const sb = samples(b);
  const ratios = sa.map((r, i) => (r.requests.average / sb[i]?.requests.average) * 100);
  if (ratios.length === 0 || ratios.some((r) => !Number.isFinite(r))) return "–";
  return `${fmt(median(ratios), 1)} % (${fmt(Math.min(...ratios), 1)}–${fmt(Math.max(...ratios), 1)})`;
};
const targetNamed = (name) => targets.find((t) => t.name === name);
const bare = targetNamed("bare/small");
for (const kase of ["GET /shop/v1/discovery/events", "POST cart + item"]) {
  console.log(
    `| entrada / bare node:http (same bytes and headers), ${kase}: req/s · req per server CPU-second | ${fmt((pick("entrada", docName, kase) / pick("bare", docName, kase)) * 100, 1)} % · ${fmt((pickCpu("entrada", kase) / pickCpu("bare", kase)) * 100, 1)} % |`,
  );
  if (bare)
    console.log(
      `| entrada / bare node:http, ${kase}: per round, median (range) | ${perRound(targetNamed("entrada/small"), bare, kase)} |`,
    );
  if (baseDist && bare) {
    console.log(
      `| entrada (base) / bare node:http, ${kase}: per round, median (range) | ${perRound(targetNamed("base/small"), bare, kase)} |`,
    );
    console.log(
      `| entrada / entrada (base), ${kase}: per round, median (range) | ${perRound(targetNamed("entrada/small"), targetNamed("base/small"), kase)} |`,
    );
  }
}
console.log(
  `| node:http transport / msw bridge, GET | ${fmt(pick("entrada", docName, "GET /shop/v1/discovery/events") / pick("msw", docName, "GET /shop/v1/discovery/events"), 1)}× |`,
);
// In-process: the engine alone (no sockets), small vs grown document in alternating batches. This isolates
// what the document size costs the engine from the HTTP layer and from the machine's noise.
if (process.env.BENCH_HTTP_ONLY === "1") process.exit(0);
const { createEntradaMock } = await import(join(root, "dist/index.js"));
// A custom (grown) document compiles its validators at run time: the Node compiler is injected.
const { ajvSchemaCompiler } = await import(join(root, "dist/compiler/index.js"));
async function engineOps(document) {
  const core = createEntradaMock({
    rateLimit: false,
    ...(document ? { document, schemaCompiler: ajvSchemaCompiler } : {}),
    seed: JSON.parse(readFileSync(seedPath, "utf8")),
  });
  const tokenResponse = await core.handle({
    method: "POST",
    url: "http://bench/connect/token",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new TextEncoder().encode("grant_type=client_credentials&scope=Shop"),
  });
  const auth = `Bearer ${JSON.parse(tokenResponse.body).access_token}`;
  const get = {
    method: "GET",
    url: "http://bench/shop/v1/discovery/events",
    headers: { authorization: auth },
    body: null,
  };
  const list = JSON.parse((await core.handle(get)).body);
  const event = JSON.parse(
    (await core.handle({ ...get, url: `http://bench/shop/v1/discovery/events/${list.items[0].id}` })).body,
  );
  const item = new TextEncoder().encode(
    JSON.stringify({
      articleId: event.pricingAssortments[0].articles[0].id,
      slotId: event.slots[0].id,
      quantity: 1,
    }),
  );
  const json = { authorization: auth, "content-type": "application/json" };
  return {
    get: () => core.handle(get),
    post: async () => {
      const cart = JSON.parse(
        (await core.handle({ method: "POST", url: "http://bench/shop/v1/cart", headers: json, body: null }))
          .body,
      );
      await core.handle({
        method: "POST",
        url: `http://bench/shop/v1/cart/${cart.id}/items`,
        headers: json,
        body: item,
      });
    },
  };
}
const engines = { [docName]: await engineOps(null), [bigName]: await engineOps(bigDoc) };
const engineRates = {};
for (const kase of ["get", "post"]) {
  const samples = { [docName]: [], [bigName]: [] };
  for (let round = 0; round < 24; round++) {
    for (const name of round % 2 ? [bigName, docName] : [docName, bigName]) {
      const started = performance.now();
      for (let i = 0; i < 2000; i++) await engines[name][kase]();
      samples[name].push(2000 / ((performance.now() - started) / 1000));
    }
  }
  for (const name of [docName, bigName]) engineRates[`${kase} ${name}`] = median(samples[name]);
  console.log(
    `| engine in-process ${kase === "get" ? "GET events" : "POST cart + item (2 requests)"}: ${docName} / ${bigName} | ${fmt(engineRates[`${kase} ${docName}`])} / ${fmt(engineRates[`${kase} ${bigName}`])} ops/s (${fmt((engineRates[`${kase} ${bigName}`] / engineRates[`${kase} ${docName}`]) * 100, 1)} %) |`,
  );
}

const startup = {
  "entrada/small": await startupMedian("entrada", docPath, 7),
  "entrada/big": await startupMedian("entrada", bigPath, 7),
  ...(skipPrism
    ? {}
    : {
        "prism/small": await startupMedian("prism", docPath, 3),
        "prism/big": await startupMedian("prism", bigPath, 3),
      }),
};
for (const [name, m] of Object.entries(meta)) {
  console.log(
    `| ${name}: start-up (spawn → first response${startup[name] ? ", median" : ""}) | ${fmt(startup[name] ?? m.startupMs)} ms |`,
  );
  console.log(`| ${name}: RSS idle / after the runs | ${fmt(m.idle)} / ${fmt(m.after)} MB |`);
}
if (meta["prism/small"]) {
  console.log(
    `| start-up entrada / prism (medians) | ${fmt(startup["entrada/small"] / startup["prism/small"], 2)}× |`,
  );
  console.log(
    `| idle RSS entrada / prism | ${fmt(meta["entrada/small"].idle / meta["prism/small"].idle, 2)}× |`,
  );
}
// Retained memory (forced GC, in a child with --expose-gc): 40 000 abandoned carts, then 49 h of mock time.
const memory = JSON.parse(
  execFileSync(process.execPath, ["--expose-gc", join(root, "bench/memory.mjs"), join(root, "dist")], {
    encoding: "utf8",
  }).trim(),
);
console.log(
  `| heap kept by ${memory.carts} abandoned carts (above idle) / 49 h later | ${fmt(memory.heapAfterCartsMb - memory.idleHeapMb, 1)} / ${fmt(memory.heap49hLaterMb - memory.idleHeapMb, 1)} MB (${memory.cartsKept} carts kept) |`,
);
process.exit(0);
