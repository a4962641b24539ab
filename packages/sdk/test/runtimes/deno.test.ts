/**
 * The core under Deno (from the `deno` npm package), with no permissions at all: fetch, Web Crypto, AbortSignal
 * and TextEncoder are all it needs.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, expect, it } from "vitest";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const require = createRequire(join(pkgDir, "package.json"));
const tmp = mkdtempSync(join(tmpdir(), "entrada-sdk-deno-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const SCRIPT = `
import { createClient, verifyWebhook, TimeoutError } from "./sdk.mjs";
const seen = [];
const fetchImpl = async (req, init) => {
  seen.push({ path: new URL(req.url).pathname, auth: req.headers.get("authorization"), key: req.headers.get("idempotency-key") });
  if (new URL(req.url).pathname === "/connect/token") {
    return new Response(JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 }), { headers: { "content-type": "application/json" } });
  }
  if (req.url.endsWith("/slow")) return new Promise(() => {}); // hangs and ignores the signal: the client still times out
  return new Response(JSON.stringify({ id: "crt_1" }), { status: 201, headers: { "content-type": "application/json", "x-log-id": "log_1" } });
};
const client = createClient({ baseUrl: "https://api.x.test", clientId: "a", clientSecret: "b", locale: "it-CH", fetch: fetchImpl });
const r = await client.shop.createCart({ body: {} });
let timeout = "none";
try { await client.fetch("/slow", { timeoutMs: 20, retry: false }); } catch (e) { timeout = e instanceof TimeoutError ? e.scope : String(e); }
const secretBytes = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
const secret = "whsec_" + btoa(String.fromCharCode(...secretBytes));
const body = JSON.stringify({ type: "cart.locked", timestamp: new Date().toISOString(), data: {} });
const id = "msg_1", ts = String(Math.floor(Date.now() / 1000));
const key = await crypto.subtle.importKey("raw", secretBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id + "." + ts + "." + body)));
const event = await verifyWebhook(body, { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": "v1," + btoa(String.fromCharCode(...mac)) }, secret);
console.log(JSON.stringify({ deno: Deno.version.deno, data: r.data, meta: r.meta, seen, timeout, event: event.type }));
`;

it("runs the core under Deno without permissions", async () => {
  await build({
    entryPoints: [join(pkgDir, "src/index.ts")],
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "module", "default"],
    outfile: join(tmp, "sdk.mjs"),
    logLevel: "silent",
  });
  writeFileSync(join(tmp, "run.mjs"), SCRIPT);
  const deno = join(dirname(require.resolve("deno/package.json")), "bin.cjs");
  const stdout = execFileSync(process.execPath, [deno, "run", "--no-prompt", "--no-config", "run.mjs"], {
    cwd: tmp,
    encoding: "utf8",
    env: { ...process.env, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
    timeout: 60_000,
  });
  const out = JSON.parse(stdout.trim().split("\n").at(-1) as string);
  expect(out.deno).toMatch(/^2\./);
  expect(out.data).toEqual({ id: "crt_1" });
  expect(out.meta).toMatchObject({ logId: "log_1", attempts: 1 });
  expect(out.seen[0]).toMatchObject({ path: "/connect/token" });
  expect(out.seen[1]).toMatchObject({ path: "/shop/v1/cart", auth: "Bearer tok" });
  expect(out.seen[1].key).toBe(out.meta.idempotencyKey);
  expect(out.timeout).toBe("attempt");
  expect(out.event).toBe("cart.locked");
}, 90_000);
