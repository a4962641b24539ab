#!/usr/bin/env node
// Before/after: the SDK's sources at a git ref against the working tree, the same calls through both (and
// openapi-fetch as the common baseline), interleaved in one process so a shared machine's drift hits all alike.
// Usage (from packages/sdk): `pnpm exec node --expose-gc bench/compare.mjs <git-ref> [--get]` (`--get`: GETs only,
// without the writes, whose garbage and code paths then weigh on no GET batch).
import { execSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import createFetchClient from "openapi-fetch";
import {
  BASE,
  EVENT_PATH,
  eventId,
  fakeFetch,
  importSdk,
  interleaved,
  median,
  ratioText,
  readyResponse,
} from "./overhead.mjs";

const ref = process.argv[2];
const getOnly = process.argv.includes("--get");
if (!ref) throw new Error("usage: node --expose-gc bench/compare.mjs <git-ref>");
const here = fileURLToPath(new URL("..", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "entrada-sdk-compare-"));
execSync(`git archive ${ref} src | tar -x -C ${dir}`, { cwd: here });

// (openapi-fetch stays outside the bundles: one copy, shared by both.)
const before = await importSdk(dir, { external: ["openapi-fetch"] });
const after = await importSdk(here, { external: ["openapi-fetch"] });

const CART = JSON.stringify({ id: "crt_1", items: [] });
/** The fake server of bench/overhead.mjs, answering a write (but the token request) with a cart. */
const fakeServer = async (request) =>
  request.method === "POST" && !request.url.endsWith("/connect/token")
    ? readyResponse(CART, request.url)
    : fakeFetch(request);
const client = (sdk) =>
  sdk.createClient({ baseUrl: BASE, clientId: "b", clientSecret: "s", locale: "de-CH", fetch: fakeServer });
const [a, b] = [client(before), client(after)];
await a.getAccessToken();
await b.getAccessToken();
const openapiFetch = createFetchClient({ baseUrl: BASE, fetch: fakeServer });
const path = { params: { path: { eventId } } };
const ok = async (promise) => {
  const { data, error } = await promise;
  if (error) throw error;
  return data;
};
const variants = {
  "openapi-fetch GET": async () =>
    (
      await openapiFetch.GET(EVENT_PATH, {
        ...path,
        headers: { authorization: "Bearer tok_bench", "accept-language": "de-CH" },
      })
    ).data,
  "before GET": () => ok(a.shop.getEvent(path)),
  "after GET": () => ok(b.shop.getEvent(path)),
};
if (!getOnly) {
  variants["before POST"] = () => ok(a.shop.createCart({ body: {} }));
  variants["after POST"] = () => ok(b.shop.createCart({ body: {} }));
}
const { perBatch, ratios, rounds, iterations } = await interleaved(variants, {
  baseline: "openapi-fetch GET",
  iterations: 2_000,
  rounds: Number(process.env.ROUNDS ?? 24),
});
rmSync(dir, { recursive: true, force: true });
console.log(
  `SDK ${ref} (before) vs working tree (after), fake fetch, ${rounds} interleaved rounds × ${iterations} calls; ratio per round: median (range)`,
);
for (const [name, values] of Object.entries(perBatch))
  console.log(
    `  ${name.padEnd(18)} ${median(values).toFixed(2).padStart(7)} µs  ${ratioText(ratios[name])} openapi-fetch GET`,
  );
for (const kind of getOnly ? ["GET"] : ["GET", "POST"]) {
  const after = perBatch[`after ${kind}`];
  console.log(
    `  after/before ${kind}: ${ratioText(after.map((us, round) => us / perBatch[`before ${kind}`][round]))}`,
  );
}
