// The GET-overhead harness shared by bench/run.mjs (`pnpm bench`) and bench/compare.mjs: one fake server answering
// from memory, and interleaved batches of every variant in one process, so a shared machine's drift hits all alike.
//
// What makes the figure trustworthy:
// - the fake fetch hands back a ready Response-like (status, headers, the same JSON text), so the clients' own work
//   is what is measured, not undici building a `Response`;
// - CPU time of the process per batch, not the wall clock: time the scheduler hands to other processes of a shared
//   machine is not counted;
// - warm-up until the JIT has settled, then batches long enough (thousands of calls) that a timer tick or a GC
//   pause is a small part of one;
// - every round runs each variant once, in an order that rotates from round to round, and the ratio is taken per
//   round against the baseline's batch of that same round: the figure is the median of those ratios, with their
//   range, never a single best or worst batch;
// - each batch starts after a minor GC (`gc({ type: "minor" })`): an empty young generation, so no variant pays
//   another's garbage — and never after a full one. A full GC clears the weak references of optimised code ("embedded
//   weak objects cleared" in `--trace-deopt`: 167 deoptimisations over 10 batches of 5,000 GETs), so a batch after
//   it measured the JIT compiling everything again on its own threads, which the process's CPU time counts. The
//   variant with more functions paid more: the SDK showed 1.25–1.36× openapi-fetch that way, against 1.0–1.1× in
//   steady state (one client per process, no forced GC; and `gc-get.mjs`'s long loop, whose 230,000 GETs see one
//   full GC).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import createFetchClient from "openapi-fetch";

/**
 * The SDK's sources under `root` (a package directory) bundled with esbuild as users' bundlers would, then imported:
 * `contents` is the entry (default: the core entry), `minify: false` keeps names for the profiler.
 */
export async function importSdk(
  root,
  { contents = 'export * from "./src/index.ts";', minify = true, external = [] } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), "entrada-sdk-bench-"));
  const outfile = join(dir, "sdk.mjs");
  await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    minify,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "module", "default"],
    external,
    outfile,
    logLevel: "silent",
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const EVENT_ID = "evt_01JD3XQ2R4S6T8V0W2X4Y6Z8A0";
export const BASE = "https://api.bench.entrada.test";
export const EVENT_PATH = "/shop/v1/discovery/events/{eventId}";
export const eventId = EVENT_ID;

export const EVENT = JSON.stringify({
  id: EVENT_ID,
  slug: "jazz-night",
  name: "Jazz Night",
  summary: "An evening of jazz.",
  description: "Long description ".repeat(10),
  venue: { id: "ven_1", name: "Kaufleuten", city: "Zürich" },
  startsAt: "2026-12-01T19:00:00Z",
  endsAt: "2026-12-01T23:00:00Z",
  priceFrom: { amount: 4500, currency: "CHF" },
  available: true,
  slots: [
    {
      id: "slt_1",
      startsAt: "2026-12-01T19:00:00Z",
      endsAt: "2026-12-01T23:00:00Z",
      capacity: 300,
      available: 120,
    },
  ],
  pricingAssortments: [],
  surveyId: null,
});
export const TOKEN = JSON.stringify({
  access_token: "tok_bench",
  token_type: "Bearer",
  expires_in: 3600,
  scope: "Shop",
});
export const jsonHeaders = {
  "content-type": "application/json",
  "x-log-id": "log_01JD3Z9B7C2D4E6F8G0H1J2K3M",
};
const sharedHeaders = new Headers(jsonHeaders);

/**
 * A 200 with a JSON body, as much of a `Response` as a client reads: status, headers, the body once (`text`,
 * `json`). Made per call (a body is read once), from a string already in memory.
 */
class ReadyResponse {
  status = 200;
  statusText = "OK";
  ok = true;
  redirected = false;
  type = "basic";
  headers = sharedHeaders;
  body = null;
  bodyUsed = false;
  #text;
  constructor(text, url) {
    this.#text = text;
    this.url = url;
  }
  text() {
    this.bodyUsed = true;
    return Promise.resolve(this.#text);
  }
  json() {
    this.bodyUsed = true;
    return Promise.resolve(JSON.parse(this.#text));
  }
}

/** A ready 200 answer with `text` as its JSON body. */
export const readyResponse = (text, url = "") => new ReadyResponse(text, url);

/** The fake server of every variant: the token endpoint's answer or the event, ready at once. */
export const fakeFetch = async (request) =>
  readyResponse(request.url.endsWith("/connect/token") ? TOKEN : EVENT, request.url);

/**
 * µs of CPU per call over one batch: the process's CPU time (user + system, GC threads included), not the wall
 * clock, so time the scheduler gives to other processes of a shared machine is not counted.
 */
async function batch(fn, iterations) {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) await fn();
  const { user, system } = process.cpuUsage(start);
  return (user + system) / iterations;
}

/**
 * Runs `variants` (name → async function of one call) interleaved: `warmup` calls each, then `rounds` rounds of one
 * batch of `iterations` calls per variant, the order rotating per round. Returns µs per call of every batch, and per
 * variant the ratio of each round's batch to the `baseline`'s batch of the same round.
 */
export async function interleaved(variants, { baseline, rounds = 24, iterations = 4_000, warmup = 20_000 }) {
  const names = Object.keys(variants);
  // Warm-up in slices, interleaved as well, so every variant is optimised before the first measured batch.
  for (let done = 0; done < warmup; done += 1_000)
    for (const name of names) await batch(variants[name], 1_000);
  const perBatch = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      globalThis.gc?.({ type: "minor" }); // every batch starts on an empty young generation: no variant pays another's garbage
      perBatch[name][round] = await batch(variants[name], iterations);
    }
  }
  const ratios = Object.fromEntries(
    names.map((name) => [name, perBatch[name].map((us, round) => us / perBatch[baseline][round])]),
  );
  return { perBatch, ratios, rounds, iterations };
}

export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
export const range = (values) => [Math.min(...values), Math.max(...values)];

/** `1.08× (1.04–1.13)`: the median ratio and its range over the rounds. */
export const ratioText = (ratios) => {
  const [low, high] = range(ratios);
  return `${median(ratios).toFixed(2)}× (${low.toFixed(2)}–${high.toFixed(2)})`;
};

/**
 * One GET of the event by id against the fake server, as each client makes it, resolving to its data (rejecting with
 * its error):
 * `full` (`createClient`), `shop` (`createShopClient`, when `sdk` exports it) or `openapi-fetch` alone (with the
 * bearer token and language the SDK adds itself). Shared by the single-client scripts (profile, GC, allocations).
 */
export function getEventCall(sdk, flavour = "full") {
  const get = getEvent(sdk, flavour);
  return async () => {
    const { data, error } = await get();
    if (error) throw error;
    return data;
  };
}

function getEvent(sdk, flavour) {
  const path = { params: { path: { eventId } } };
  if (flavour === "openapi-fetch") {
    const client = createFetchClient({ baseUrl: BASE, fetch: fakeFetch });
    const headers = { authorization: "Bearer tok_bench", "accept-language": "de-CH" };
    return () => client.GET(EVENT_PATH, { ...path, headers });
  }
  const client =
    flavour === "shop"
      ? sdk.createShopClient({ baseUrl: BASE, sessionToken: "tok_bench", locale: "de-CH", fetch: fakeFetch })
      : sdk.createClient({
          baseUrl: BASE,
          clientId: "bench",
          clientSecret: "secret",
          locale: "de-CH",
          fetch: fakeFetch,
        });
  return () => client.shop.getEvent(path);
}
