#!/usr/bin/env node
// Webhook verifier benchmark (Node 24): verify a 2 KB delivery with @entrada/sdk/webhooks (native fast path and
// the Web Crypto path used by browsers/edge), against a bare node:crypto HMAC and the standardwebhooks package,
// all measured in this run. Also reports the min+gzip size of the webhooks entry (esbuild bundle + zlib).
// Usage: node bench/webhooks.mjs   (from packages/sdk; `pnpm exec` puts Node 24 on PATH)
import { createHmac, createSecretKey, timingSafeEqual } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { Webhook } from "standardwebhooks";

const here = new URL("..", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "entrada-bench-"));

async function bundle(name, contents) {
  const out = join(dir, `${name}.mjs`);
  await build({
    stdin: { contents, resolveDir: here, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    outfile: out,
    logLevel: "silent",
  });
  const code = readFileSync(out);
  return { out, gzip: gzipSync(code).length, min: code.length };
}

const entry = await bundle("entry", 'export * from "./src/webhooks/index.ts";');
const verifierOnly = await bundle("verify", 'export { verifyWebhook } from "./src/webhooks/index.ts";');
const sw = await build({
  stdin: { contents: 'export { Webhook } from "standardwebhooks";', resolveDir: here },
  bundle: true,
  minify: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  write: false,
  logLevel: "silent",
});
const swGzip = gzipSync(sw.outputFiles[0].contents).length;

const native = await import(pathToFileURL(entry.out).href);
// A second copy loaded while node:crypto is hidden takes the Web Crypto path (browsers, Deno, edge).
writeFileSync(join(dir, "webcrypto.mjs"), readFileSync(entry.out));
const getBuiltin = process.getBuiltinModule;
process.getBuiltinModule = undefined;
const webcrypto = await import(pathToFileURL(join(dir, "webcrypto.mjs")).href);
process.getBuiltinModule = getBuiltin;
rmSync(dir, { recursive: true, force: true });

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const key = Buffer.from(secret.slice(6), "base64");
const keyObject = createSecretKey(key);
const payload = { type: "ticket.issued", timestamp: new Date().toISOString(), data: { pad: "" } };
payload.data.pad = "x".repeat(2048 - JSON.stringify(payload).length);
const body = JSON.stringify(payload);
const headers = await native.signWebhook({ id: "msg_2c5x9bench", body, secret });
const wh = new Webhook(secret);

// Sanity: every contender accepts the delivery.
if ((await native.verifyWebhook(body, headers, secret)).type !== "ticket.issued") throw new Error("native");
if ((await webcrypto.verifyWebhook(body, headers, secret)).type !== "ticket.issued")
  throw new Error("webcrypto");
wh.verify(body, headers);

const expected = Buffer.from(headers["webhook-signature"].slice(3));
const contenders = {
  // The floor: one HMAC over the signed content with a prepared key, base64, constant-time compare.
  "bare node:crypto HMAC": () => {
    const mac = createHmac("sha256", keyObject)
      .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
      .digest("base64");
    if (!timingSafeEqual(Buffer.from(mac), expected)) throw new Error("mismatch");
  },
  // The same as usually hand-written: the key as a Buffer (Node re-imports it on every call).
  "bare HMAC, Buffer key": () => {
    const mac = createHmac("sha256", key)
      .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
      .digest("base64");
    if (!timingSafeEqual(Buffer.from(mac), expected)) throw new Error("mismatch");
  },
  // A minimal receiver: the floor plus JSON.parse (verifyWebhook parses too).
  "bare HMAC + JSON.parse": () => {
    const mac = createHmac("sha256", keyObject)
      .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
      .digest("base64");
    if (!timingSafeEqual(Buffer.from(mac), expected)) throw new Error("mismatch");
    return JSON.parse(body);
  },
  "@entrada/sdk verifyWebhook (Node)": () => native.verifyWebhook(body, headers, secret),
  "@entrada/sdk verifyWebhook (Web Crypto)": () => webcrypto.verifyWebhook(body, headers, secret),
  standardwebhooks: () => wh.verify(body, headers),
};

async function timeIt(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) await fn();
  return Number(process.hrtime.bigint() - start) / 1000 / iterations;
}

// The machine is shared: contenders run interleaved, round after round, and each round's times are divided by
// the baseline's time in the same round. We report the median per-operation time and the median ratio.
const names = Object.keys(contenders);
for (const name of names) await timeIt(contenders[name], 3000); // warm-up
const ROUNDS = 15;
const times = Object.fromEntries(names.map((n) => [n, []]));
const ratios = Object.fromEntries(names.map((n) => [n, []]));
const parseRatios = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r++) {
  const round = {};
  for (const name of names)
    round[name] = await timeIt(contenders[name], name.includes("Web Crypto") ? 400 : 2000);
  for (const name of names) {
    times[name].push(round[name]);
    ratios[name].push(round[name] / round["bare node:crypto HMAC"]);
    parseRatios[name].push(round[name] / round["bare HMAC + JSON.parse"]);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `Verify a ${body.length}-byte webhook (${ROUNDS} interleaved rounds, medians, ${process.version}):`,
);
for (const name of names) {
  const us = median(times[name]).toFixed(2).padStart(7);
  const vsHmac = `${median(ratios[name]).toFixed(2)}× bare HMAC`;
  console.log(
    `  ${name.padEnd(42)} ${us} µs  ${vsHmac}, ${median(parseRatios[name]).toFixed(2)}× HMAC + parse`,
  );
}
console.log("Size, esbuild --minify + gzip:");
console.log(`  @entrada/sdk/webhooks (whole entry)        ${entry.gzip} B  (${entry.min} B min)`);
console.log(
  `  verifyWebhook alone                        ${verifierOnly.gzip} B  (${verifierOnly.min} B min)`,
);
console.log(`  standardwebhooks                           ${swGzip} B`);
const budget = 2048;
console.log(
  `  budget ${budget} B: ${verifierOnly.gzip <= budget && entry.gzip <= budget ? "met" : "EXCEEDED"}`,
);
