#!/usr/bin/env node
// A/B throughput of two engines in one process: the same requests, alternating batches, so machine noise hits both
// alike. Each side is the engine's TypeScript source tree (src/); "old" is a checkout of an earlier commit. Engines
// loaded later in a process run slower (shared dependencies' call sites go megamorphic: old vs an identical copy of
// itself measured 0.67 on GET), so each side is loaded twice from two copies in A B B A order and averaged:
//   mkdir -p bench/.ab/old && git archive <commit> src | tar -x -C bench/.ab/old
//   cp -r bench/.ab/old bench/.ab/old2 && mkdir -p bench/.ab/new2 && cp -r src bench/.ab/new2/
//   node --conditions=source --experimental-transform-types --disable-warning=ExperimentalWarning \
//     bench/ab.mjs bench/.ab/old/src src bench/.ab/new2/src bench/.ab/old2/src
// A side may also be a built dist/ (a copy next to a node_modules and a package.json): its index.js is loaded.
// Cases: GET event discovery (validated, authenticated) and POST cart + item (stateful, idempotency-free).
// AB_WARM_POSTS=<n> (default 200) cart + item pairs per engine before the rounds: 10200 measures every round past
// the default cart cap of 10 000 (each new cart evicts the oldest), the steady state of a long-running server.
// AB_CLOCK=cpu times each batch by the process's CPU time instead of the wall clock and adds the ratios of the
// median and of the best batch: on a loaded, shared machine the wall clock counts the time other jobs ran.
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

const dirs = process.argv.slice(2).map((d) => resolve(d));
if (dirs.length !== 4) throw new Error("usage: ab.mjs <old> <new> <new copy> <old copy>");
const rounds = Number(process.env.AB_ROUNDS ?? 8);
const batch = Number(process.env.AB_BATCH ?? 3000);
const warmPosts = Number(process.env.AB_WARM_POSTS ?? 200);
const encoder = new TextEncoder();

async function engine(dir) {
  const source = join(dir, "index.ts");
  const { createEntradaMock } = await import(existsSync(source) ? source : join(dir, "index.js"));
  const core = createEntradaMock({ rateLimit: false, seed: { shop: { slotCapacity: 100_000_000 } } });
  const token = JSON.parse(
    (
      await core.handle({
        method: "POST",
        url: "http://ab/connect/token",
        headers: {
          authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: encoder.encode("grant_type=client_credentials"),
      })
    ).body,
  ).access_token;
  const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
  const get = (path) => core.handle({ method: "GET", url: `http://ab${path}`, headers, body: null });
  const events = JSON.parse((await get("/shop/v1/discovery/events")).body);
  const event = JSON.parse((await get(`/shop/v1/discovery/events/${events.items[0].id}`)).body);
  const item = encoder.encode(
    JSON.stringify({
      articleId: event.pricingAssortments[0].articles[0].id,
      slotId: event.slots[0].id,
      quantity: 1,
    }),
  );
  return {
    async getCase() {
      const r = await get("/shop/v1/discovery/events");
      if (r.status !== 200) throw new Error(`GET ${r.status}`);
    },
    async postCase() {
      const cart = await core.handle({ method: "POST", url: "http://ab/shop/v1/cart", headers, body: null });
      const id = JSON.parse(cart.body).id;
      const added = await core.handle({
        method: "POST",
        url: `http://ab/shop/v1/cart/${id}/items`,
        headers,
        body: item,
      });
      if (added.status !== 201) throw new Error(`POST ${added.status}`);
    },
  };
}

// A B B A: each side once early and once late.
const loaded = [];
for (const dir of dirs) loaded.push(await engine(dir));
const sideOf = ["old", "new", "new", "old"];
const totals = { old: { get: 0, post: 0 }, new: { get: 0, post: 0 } };
const cpuClock = process.env.AB_CLOCK === "cpu";
const batches = { old: { get: [], post: [] }, new: { get: [], post: [] } };
const time = async (fn, n) => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await fn();
  if (!cpuClock) return performance.now() - started;
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000;
};
// Warm-up, then alternate the order each round.
for (const side of loaded) {
  await time(side.getCase, 500);
  await time(side.postCase, warmPosts);
}
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 2, 3] : [3, 2, 1, 0];
  for (const i of order) {
    const ms = await time(loaded[i].getCase, batch);
    totals[sideOf[i]].get += ms;
    batches[sideOf[i]].get.push(ms);
  }
  for (const i of order) {
    const ms = await time(loaded[i].postCase, batch / 2);
    totals[sideOf[i]].post += ms;
    batches[sideOf[i]].post.push(ms);
  }
}
// Each side ran two engines per round.
const rate = (ms, n) => Math.round((2 * n * rounds * 1000) / ms);
const row = (name) => ({
  engine: name,
  getPerSec: rate(totals[name].get, batch),
  postCartAndItemPerSec: rate(totals[name].post, batch / 2),
});
const [o, n] = [row("old"), row("new")];
console.table([o, n]);
console.log(
  JSON.stringify({
    rounds,
    batch,
    getRatio: +(n.getPerSec / o.getPerSec).toFixed(3),
    postRatio: +(n.postCartAndItemPerSec / o.postCartAndItemPerSec).toFixed(3),
  }),
);
if (cpuClock) {
  // Throughput ratios new/old of the median batch and of the best batch (old's time over new's).
  const median = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const ratio = (pick, kase) => +(pick(batches.old[kase]) / pick(batches.new[kase])).toFixed(3);
  console.log(
    JSON.stringify({
      clock: "cpu",
      median: { get: ratio(median, "get"), post: ratio(median, "post") },
      best: { get: ratio((a) => Math.min(...a), "get"), post: ratio((a) => Math.min(...a), "post") },
    }),
  );
}
