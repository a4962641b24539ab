#!/usr/bin/env node
// Bytes allocated per `client.shop.getEvent` against bench/overhead.mjs's fake fetch, exactly rather than sampled
// (bench/alloc-get.mjs says by whom): the heap's growth over batches of calls in a new space large enough that no GC
// runs within a batch, beside openapi-fetch doing the same GET. A `git ref` adds the SDK's sources at that ref.
// Usage (from packages/sdk):
//   `pnpm exec node --expose-gc --min-semi-space-size=256 --max-semi-space-size=256 bench/heap-get.mjs [git-ref]`
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { getHeapStatistics } from "node:v8";
import { getEventCall, importSdk } from "./overhead.mjs";

const BATCH = 5_000;
const here = fileURLToPath(new URL("..", import.meta.url));
const ref = process.argv[2];
const variants = { "openapi-fetch": getEventCall(undefined, "openapi-fetch") };
if (ref) {
  const dir = mkdtempSync(join(tmpdir(), "entrada-sdk-heap-"));
  execSync(`git archive ${ref} src | tar -x -C ${dir}`, { cwd: here });
  variants[`SDK at ${ref}`] = getEventCall(await importSdk(dir, { external: ["openapi-fetch"] }));
  rmSync(dir, { recursive: true, force: true });
}
variants["SDK (working tree)"] = getEventCall(await importSdk(here, { external: ["openapi-fetch"] }));

for (const [name, call] of Object.entries(variants)) {
  for (let i = 0; i < 20_000; i++) await call(); // warm-up (JIT)
  const perCall = [];
  for (let round = 0; round < 5; round++) {
    globalThis.gc?.();
    const before = getHeapStatistics().used_heap_size;
    for (let i = 0; i < BATCH; i++) await call();
    perCall.push(Math.round((getHeapStatistics().used_heap_size - before) / BATCH));
  }
  // A batch that met a GC shrinks: the largest batch is the allocation.
  console.log(
    `${name.padEnd(22)} ${String(Math.max(...perCall)).padStart(6)} B per call  (batches: ${perCall.join(", ")})`,
  );
}
