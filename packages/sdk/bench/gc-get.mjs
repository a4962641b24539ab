#!/usr/bin/env node
// The garbage collector's share of `client.shop.getEvent` against bench/overhead.mjs's fake fetch, beside openapi-fetch
// doing the same GET: collections (minor and major) and their pause time per call over a long loop, from
// `PerformanceObserver` `gc` entries. Objects that outlive a minor GC (promoted, then dropped by a major one) show here
// as major GCs and long minor ones, which a short batch after a minor GC (bench/overhead.mjs) barely sees.
// Usage (from packages/sdk): `pnpm exec node bench/gc-get.mjs [calls] [--client=full|openapi-fetch]`
import { constants, PerformanceObserver } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { getEventCall, importSdk } from "./overhead.mjs";

const calls = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 100_000);
const flavour = process.argv.find((a) => a.startsWith("--client="))?.slice(9) ?? "full";
const sdk = await importSdk(fileURLToPath(new URL("..", import.meta.url)));
const call = getEventCall(sdk, flavour);
for (let i = 0; i < 30_000; i++) await call(); // warm-up (JIT)

const collections = { minor: { count: 0, ms: 0 }, major: { count: 0, ms: 0 } };
const count = (entries) => {
  for (const entry of entries) {
    const kind = entry.detail.kind === constants.NODE_PERFORMANCE_GC_MAJOR ? "major" : "minor";
    collections[kind].count++;
    collections[kind].ms += entry.duration;
  }
};
const observer = new PerformanceObserver((list) => count(list.getEntries()));
observer.observe({ entryTypes: ["gc"] });
const cpu = process.cpuUsage();
for (let i = 0; i < calls; i++) {
  await call();
  // Node hands GC entries over on the event loop, which a loop of awaited promises never reaches.
  if (i % 1_000 === 999) await new Promise((resolve) => setImmediate(resolve));
}
const { user, system } = process.cpuUsage(cpu);
await new Promise((resolve) => setImmediate(resolve));
observer.disconnect();
const perCall = (ms) => `${((ms * 1000) / calls).toFixed(2)} µs/call`;
console.log(`${flavour}, ${calls} calls: ${((user + system) / calls).toFixed(2)} µs CPU/call`);
for (const [kind, { count, ms }] of Object.entries(collections))
  console.log(`  ${kind} GCs: ${count}, ${ms.toFixed(0)} ms (${perCall(ms)})`);
console.log(`  total: ${perCall(collections.minor.ms + collections.major.ms)}`);
