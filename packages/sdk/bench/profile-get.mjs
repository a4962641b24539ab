#!/usr/bin/env node
// Where the time of `client.shop.getEvent` goes: runs it against bench/overhead.mjs's fake fetch under the V8 CPU
// profiler and prints the functions with the most self time (SDK sources bundled unminified, so names are theirs).
// Usage (from packages/sdk): `pnpm exec node bench/profile-get.mjs [calls] [--client=full|shop|openapi-fetch]`
// (`openapi-fetch`: the same GET through openapi-fetch alone, the baseline of `pnpm bench`).
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { getEventCall, importSdk } from "./overhead.mjs";

const calls = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 200_000);
const flavour = process.argv.find((a) => a.startsWith("--client="))?.slice(9) ?? "full";
const here = fileURLToPath(new URL("..", import.meta.url));
const sdk = await importSdk(here, {
  contents: 'export * from "./src/index.ts"; export * from "./src/shop.ts";',
  minify: false,
});

const call = getEventCall(sdk, flavour);
for (let i = 0; i < 20_000; i++) await call(); // warm-up (JIT)

const session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.setSamplingInterval", { interval: 50 });
await session.post("Profiler.start");
const start = performance.now();
for (let i = 0; i < calls; i++) await call();
const elapsed = performance.now() - start;
const { profile } = await session.post("Profiler.stop");
session.disconnect();

// Self and total time per function (samples × interval), summed over the nodes of the same function and place
// (total: itself and what it called, counted once per sample even where a function calls itself).
const interval = (profile.endTime - profile.startTime) / profile.samples.length;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const keyOf = ({ callFrame: { functionName, url, lineNumber } }) =>
  `${functionName || "(anonymous)"}  ${url ? `${url.split("/").pop()}:${lineNumber + 1}` : ""}`;
const self = new Map();
const total = new Map();
for (const id of profile.samples) {
  const key = keyOf(nodes.get(id));
  self.set(key, (self.get(key) ?? 0) + 1);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(nodes.get(at)));
  for (const k of seen) total.set(k, (total.get(k) ?? 0) + 1);
}
const perCall = (count) => `${((count * interval) / calls).toFixed(3)} µs`;
console.log(
  `${calls} × GET of an event (${flavour}): ${((elapsed * 1000) / calls).toFixed(2)} µs per call (profiled)`,
);
const sort = (map) => [...map].sort((a, b) => b[1] - a[1]);
console.log("\nself time per call");
for (const [key, count] of sort(self).slice(0, 30)) console.log(`  ${perCall(count).padStart(10)}  ${key}`);
console.log("\ntotal time per call (itself and what it called), SDK and client functions");
for (const [key, count] of sort(total)
  .filter(([key]) => /sdk\.mjs|index\.mjs/.test(key))
  .slice(0, 30))
  console.log(`  ${perCall(count).padStart(10)}  ${key}`);
