#!/usr/bin/env node
// SDK core benchmark (run with Node 24: `pnpm bench`, or `pnpm exec node --expose-gc bench/run.mjs` from
// packages/sdk).
// Every figure is measured in this run against a baseline from the same run:
// 1. overhead per GET with a fake fetch (bench/overhead.mjs): the SDK vs openapi-fetch alone vs raw fetch (+ JSON),
//    interleaved rounds, the ratio per round (median and range); then the same over a loopback HTTP server;
// 2. (sizes per entry: size-limit, `pnpm size`, run by `pnpm bench` first and by `pnpm test` as a budget);
// 3. 1,000 concurrent calls on a cold client: token requests sent (must be 1).
// Then runs bench/webhooks.mjs (the webhook verifier's benchmark) when present.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import createFetchClient from "openapi-fetch";
import {
  BASE,
  EVENT,
  EVENT_PATH,
  eventId,
  fakeFetch,
  importSdk,
  interleaved,
  jsonHeaders,
  median,
  ratioText,
  TOKEN,
} from "./overhead.mjs";

const here = fileURLToPath(new URL("..", import.meta.url));
// The SDK as users run it: its sources bundled (sizes are measured by size-limit, `pnpm size`).
const sdk = await importSdk(here);

// ------------------------------------------------------------------------------------------ overhead
const openapiFetch = createFetchClient({ baseUrl: BASE, fetch: fakeFetch });
const client = sdk.createClient({
  baseUrl: BASE,
  clientId: "bench",
  clientSecret: "secret",
  locale: "de-CH",
  fetch: fakeFetch,
});
await client.getAccessToken();

// The same request from each: the event by id, with a bearer token and a language.
const headers = { authorization: "Bearer tok_bench", "accept-language": "de-CH" };
const variants = {
  "raw fetch + json": async () => {
    const response = await fakeFetch(
      new Request(`${BASE}/shop/v1/discovery/events/${encodeURIComponent(eventId)}`, { headers }),
    );
    return response.json();
  },
  "openapi-fetch alone": async () => {
    const { data } = await openapiFetch.GET(EVENT_PATH, { params: { path: { eventId } }, headers });
    return data;
  },
  // What the SDK's default 30 s attempt timeout costs an openapi-fetch user who wants one (it has none).
  "openapi-fetch + AbortSignal.timeout": async () => {
    const { data } = await openapiFetch.GET(EVENT_PATH, {
      params: { path: { eventId } },
      headers,
      signal: AbortSignal.timeout(30_000),
    });
    return data;
  },
  "@entrada/sdk (client.shop.getEvent)": async () => {
    const { data, error } = await client.shop.getEvent({ params: { path: { eventId } } });
    if (error) throw error;
    return data;
  },
};
const overhead = await interleaved(variants, { baseline: "openapi-fetch alone" });

// ------------------------------------------------------------- the same over a loopback HTTP server
// Real fetch (undici) does I/O and builds real responses, so this is what a call costs in practice; the fake-fetch
// figures above isolate client overhead.
const server = createServer((request, response) => {
  response.writeHead(200, jsonHeaders);
  response.end(request.url === "/connect/token" ? TOKEN : EVENT);
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const LOOPBACK = `http://127.0.0.1:${server.address().port}`;
const loopbackOpenapiFetch = createFetchClient({ baseUrl: LOOPBACK });
const loopbackClient = sdk.createClient({
  baseUrl: LOOPBACK,
  clientId: "bench",
  clientSecret: "secret",
  locale: "de-CH",
});
await loopbackClient.getAccessToken();
const loopbackVariants = {
  "raw fetch + json": async () => {
    const response = await fetch(`${LOOPBACK}/shop/v1/discovery/events/${encodeURIComponent(eventId)}`, {
      headers,
    });
    return response.json();
  },
  "openapi-fetch alone": async () => {
    const { data } = await loopbackOpenapiFetch.GET(EVENT_PATH, { params: { path: { eventId } }, headers });
    return data;
  },
  "@entrada/sdk (client.shop.getEvent)": async () => {
    const { data, error } = await loopbackClient.shop.getEvent({ params: { path: { eventId } } });
    if (error) throw error;
    return data;
  },
};
const loopback = await interleaved(loopbackVariants, {
  baseline: "openapi-fetch alone",
  rounds: 12,
  iterations: 500,
  warmup: 2_000,
});
server.close();

// ----------------------------------------------------------------------------- cold-start concurrency
let tokenRequests = 0;
const slowTokenFetch = async (request) => {
  if (request.url.endsWith("/connect/token")) {
    tokenRequests++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return fakeFetch(request);
};
const cold = sdk.createClient({
  baseUrl: BASE,
  clientId: "bench",
  clientSecret: "secret",
  fetch: slowTokenFetch,
});
const coldStart = performance.now();
const results = await Promise.all(
  Array.from({ length: 1_000 }, () => cold.shop.getEvent({ params: { path: { eventId } } })),
);
const coldMs = performance.now() - coldStart;
const failed = results.filter((r) => r.error).length;

// ---------------------------------------------------------------------------------------------- report
const us = (v) => `${v.toFixed(2)} µs`;
/** Rows of one interleaved run: per call (median batch), and the per-round ratios' median (range). */
const table = ({ perBatch, ratios }) =>
  Object.keys(perBatch).map((name) => [
    name,
    us(median(perBatch[name])),
    ratioText(ratios[name]),
    ratioText(perBatch[name].map((v, round) => v / perBatch["raw fetch + json"][round])),
  ]);
const header = ["variant", "per call", "vs openapi-fetch", "vs raw fetch"];
console.log("\n@entrada/sdk core benchmark — Node", process.version);
console.log(
  `\nOverhead per GET with a fake fetch (a ready response of the same JSON for every variant; ${overhead.rounds} interleaved rounds × ${overhead.iterations} calls; median batch, ratio per round: median (range))`,
);
printTable(header, table(overhead));
const sdkRatio = median(overhead.ratios["@entrada/sdk (client.shop.getEvent)"]);
console.log(
  `  goal ≤ 1.15× openapi-fetch: ${sdkRatio <= 1.15 ? "met" : "NOT met"} (${sdkRatio.toFixed(2)}×)`,
);

console.log(
  `\nOne GET over a loopback HTTP server (node:http, real fetch with keep-alive; ${loopback.rounds} rounds × ${loopback.iterations} calls)`,
);
printTable(header, table(loopback));

console.log("\n1,000 concurrent calls on a cold client (token endpoint answers after 20 ms)");
printTable(
  ["token requests", "failed calls", "wall time"],
  [[String(tokenRequests), String(failed), `${coldMs.toFixed(1)} ms`]],
);
console.log(`  goal exactly 1 token request: ${tokenRequests === 1 && failed === 0 ? "met" : "NOT met"}`);

const webhooksBench = join(here, "bench/webhooks.mjs");
if (existsSync(webhooksBench)) {
  console.log("\n--- bench/webhooks.mjs ---");
  const child = spawnSync(process.execPath, [webhooksBench], { cwd: here, stdio: "inherit" });
  process.exitCode = child.status ?? 1;
}

function printTable(header, body) {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  const line = (cells) =>
    `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  │  ")}`;
  console.log(line(header));
  console.log(`  ${widths.map((w) => "─".repeat(w)).join("──┼──")}`);
  for (const row of body) console.log(line(row));
}
