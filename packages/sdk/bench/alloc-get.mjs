#!/usr/bin/env node
// Which functions allocate during `client.shop.getEvent` against bench/overhead.mjs's fake fetch: the V8 sampling
// heap profiler (objects collected by minor and major GCs included) over a loop of calls, bytes per call summed per
// allocating function, largest first (SDK sources bundled unminified, so names are theirs).
// Usage (from packages/sdk): `pnpm exec node bench/alloc-get.mjs [calls] [--client=full|openapi-fetch]`
import { Session } from "node:inspector/promises";
import { fileURLToPath } from "node:url";
import { getEventCall, importSdk } from "./overhead.mjs";

const calls = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 50_000);
const flavour = process.argv.find((a) => a.startsWith("--client="))?.slice(9) ?? "full";
const here = fileURLToPath(new URL("..", import.meta.url));
const sdk = await importSdk(here, { minify: false });
const call = getEventCall(sdk, flavour);
for (let i = 0; i < 20_000; i++) await call(); // warm-up (JIT)

const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
await session.post("HeapProfiler.startSampling", {
  samplingInterval: 64,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
for (let i = 0; i < calls; i++) await call();
const { profile } = await session.post("HeapProfiler.stopSampling");
session.disconnect();

const perFunction = new Map();
let total = 0;
const walk = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const self = node.selfSize;
  if (self) {
    const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
    perFunction.set(key, (perFunction.get(key) ?? 0) + self);
    total += self;
  }
  for (const child of node.children) walk(child);
};
walk(profile.head);
console.log(`${flavour}: ${(total / calls).toFixed(0)} B allocated per call (sampled)`);
for (const [key, bytes] of [...perFunction].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${(bytes / calls).toFixed(0).padStart(6)} B  ${key}`);
