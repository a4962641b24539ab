#!/usr/bin/env node
// Before/after: the SDK's sources at a git ref against the working tree, the same calls through both (and
// openapi-fetch as the common baseline), interleaved in one process so a shared machine's drift hits all alike.
// Usage (from packages/sdk): `pnpm exec node --expose-gc bench/compare.mjs <git-ref>`
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import createFetchClient from "openapi-fetch";

const ref = process.argv[2];
if (!ref) throw new Error("usage: node --expose-gc bench/compare.mjs <git-ref>");
const here = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "entrada-sdk-compare-"));
execSync(`git archive ${ref} src | tar -x -C ${dir}`, { cwd: here });

async function load(root, name) {
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [join(root, "src/index.ts")],
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    conditions: ["import", "module", "default"],
    external: ["openapi-fetch"],
    outfile,
    logLevel: "silent",
  });
  return import(pathToFileURL(outfile).href);
}
const before = await load(dir, "before");
const after = await load(here, "after");

const BASE = "https://api.bench.entrada.test";
const EVENT = JSON.stringify({
  id: "evt_1",
  name: "Jazz Night",
  description: "Long description ".repeat(10),
});
const CART = JSON.stringify({ id: "crt_1", items: [] });
const TOKEN = JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 });
const headers = { "content-type": "application/json", "x-log-id": "log_1" };
const fakeFetch = async (request) =>
  new Response(request.url.endsWith("/connect/token") ? TOKEN : request.method === "POST" ? CART : EVENT, {
    status: 200,
    headers,
  });
const client = (sdk) =>
  sdk.createClient({ baseUrl: BASE, clientId: "b", clientSecret: "s", locale: "de-CH", fetch: fakeFetch });
const [a, b] = [client(before), client(after)];
await a.getAccessToken();
await b.getAccessToken();
const openapiFetch = createFetchClient({ baseUrl: BASE, fetch: fakeFetch });
const path = { params: { path: { eventId: "evt_1" } } };
const ok = async (promise) => {
  const { data, error } = await promise;
  if (error) throw error;
  return data;
};
const variants = {
  "openapi-fetch GET": () =>
    openapiFetch.GET("/shop/v1/discovery/events/{eventId}", {
      ...path,
      headers: { authorization: "Bearer tok", "accept-language": "de-CH" },
    }),
  "before GET": () => ok(a.shop.getEvent(path)),
  "after GET": () => ok(b.shop.getEvent(path)),
  "before POST": () => ok(a.shop.createCart({ body: {} })),
  "after POST": () => ok(b.shop.createCart({ body: {} })),
};

async function measure(fn, iterations) {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) await fn();
  return ((performance.now() - start) * 1000) / iterations;
}
for (const fn of Object.values(variants)) await measure(fn, 3_000);
const rounds = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let round = 0; round < 40; round++) {
  for (const [name, fn] of Object.entries(variants)) {
    globalThis.gc?.();
    rounds[name].push(await measure(fn, 400));
  }
}
rmSync(dir, { recursive: true, force: true });
const best = (values) => Math.min(...values);
const median = (values) => [...values].sort((x, y) => x - y)[values.length >> 1];
console.log(`SDK ${ref} (before) vs working tree (after), fake fetch, 40 interleaved batches × 400 calls`);
for (const [name, values] of Object.entries(rounds)) {
  const ratio = best(values) / best(rounds["openapi-fetch GET"]);
  console.log(
    `  ${name.padEnd(18)} ${best(values).toFixed(2).padStart(7)} µs best  ${median(values).toFixed(2).padStart(7)} µs median  ${ratio.toFixed(2)}× openapi-fetch GET`,
  );
}
for (const kind of ["GET", "POST"]) {
  const ratio = best(rounds[`after ${kind}`]) / best(rounds[`before ${kind}`]);
  console.log(`  after/before ${kind}: ${ratio.toFixed(3)} (best batches)`);
}
