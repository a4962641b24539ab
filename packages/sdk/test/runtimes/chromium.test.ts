/**
 * The core in a real browser (headless Chromium): the bundle runs without Node built-ins, refuses a client
 * secret next to a DOM, calls the API with a session token (idempotency key from Web Crypto, language, meta, a retried write's copy), and
 * verifies a webhook with Web Crypto. Needs Chromium (`scripts/chromium-path.mjs` finds it; `scripts/ensure-chromium.sh` installs Debian's).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, describe, expect, it } from "vitest";
import { chromiumPath } from "../../../../scripts/chromium-path.mjs";

const pkgDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = chromiumPath();
const tmp = mkdtempSync(join(tmpdir(), "entrada-sdk-browser-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const PAGE_SCRIPT = `
(async () => {
  const out = {};
  const { createClient, verifyWebhook } = Entrada;
  try { createClient({ baseUrl: "https://api.x.test", clientId: "a", clientSecret: "b" }); out.secret = "accepted"; }
  catch (e) { out.secret = e.name + ": " + e.message; }
  const seen = [];
  const fetchImpl = async (req) => {
    seen.push({ auth: req.headers.get("authorization"), key: req.headers.get("idempotency-key"), lang: req.headers.get("accept-language"), ua: req.headers.get("user-agent"), body: await req.text() });
    // The first attempt meets a 503: the retry sends a copy of the request, body and key included.
    if (seen.length === 1) return new Response("", { status: 503 });
    return new Response(JSON.stringify({ id: "crt_1" }), { status: 201, headers: { "content-type": "application/json", "x-log-id": "log_1", "content-language": "fr-CH" } });
  };
  const client = createClient({ baseUrl: "https://api.x.test", sessionToken: "ses_1", locale: "fr-CH", fetch: fetchImpl, retry: { baseDelayMs: 1 } });
  const r = await client.shop.createCart({ body: {} });
  out.data = r.data; out.meta = r.meta; out.seen = seen;
  // A webhook signed with the Standard Webhooks scheme, verified with Web Crypto only.
  const secretBytes = new TextEncoder().encode("0123456789abcdef0123456789abcdef");
  const secret = "whsec_" + btoa(String.fromCharCode(...secretBytes));
  const body = JSON.stringify({ type: "ticket.issued", timestamp: new Date().toISOString(), data: {} });
  const id = "msg_1", ts = String(Math.floor(Date.now() / 1000));
  const key = await crypto.subtle.importKey("raw", secretBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(id + "." + ts + "." + body)));
  const headers = { "webhook-id": id, "webhook-timestamp": ts, "webhook-signature": "v1," + btoa(String.fromCharCode(...mac)) };
  out.webhook = (await verifyWebhook(body, headers, secret)).type;
  try { await verifyWebhook(body.replace("issued", "voided"), headers, secret); out.forged = "accepted"; } catch (e) { out.forged = e.name; }
  // The browser's own fetch passed as an option (unbound) must not throw "Illegal invocation".
  const native = createClient({ baseUrl: "https://api.x.test", sessionToken: "ses_1", fetch: window.fetch, retry: false, timeoutMs: 2000 });
  const nativeResult = await native.shop.listVenues();
  out.nativeFetch = nativeResult.error ? nativeResult.error.kind + ": " + nativeResult.error.message : "ok";
  document.getElementById("out").textContent = JSON.stringify(out);
})().catch((e) => { document.getElementById("out").textContent = "ERROR " + e.stack; });
`;

describe("in headless Chromium", () => {
  it("finds a Chromium binary", () => {
    expect(CHROMIUM, "install Chromium: bash scripts/ensure-chromium.sh").toBeDefined();
  });

  it("runs the core bundle: secret refused, session-token call, Web Crypto webhook verification", async () => {
    const result = await build({
      entryPoints: [join(pkgDir, "src/index.ts")],
      bundle: true,
      format: "iife",
      globalName: "Entrada",
      platform: "browser",
      conditions: ["import", "module", "default"],
      write: false,
      logLevel: "silent",
    });
    const bundle = (result.outputFiles[0]?.text ?? "").replace(/<\/script/gi, "<\\/script");
    const html = join(tmp, "index.html");
    writeFileSync(
      html,
      `<!doctype html><html><body><pre id="out">pending</pre><script>${bundle}</script><script>${PAGE_SCRIPT}</script></body></html>`,
    );
    const dom = execFileSync(
      CHROMIUM as string,
      [
        "--no-sandbox",
        "--headless",
        "--disable-gpu",
        "--disable-background-networking",
        "--virtual-time-budget=10000",
        "--dump-dom",
        `file://${html}`,
      ],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 60_000 },
    );
    const text = /<pre id="out">([^<]*)<\/pre>/.exec(dom)?.[1] ?? "";
    expect(text.startsWith("{"), text).toBe(true);
    const out = JSON.parse(
      text
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">"),
    );
    expect(out.secret).toMatch(/^EntradaConfigError: .*refusing to use a client secret in a browser/);
    expect(out.data).toEqual({ id: "crt_1" });
    expect(out.meta).toMatchObject({
      logId: "log_1",
      contentLanguage: "fr-CH",
      replayed: false,
      attempts: 2,
    });
    expect(out.seen).toHaveLength(2);
    expect(out.seen.map((seen: { body: string }) => seen.body)).toEqual(["{}", "{}"]);
    expect(out.seen[1].key).toBe(out.seen[0].key);
    expect(out.seen[0].auth).toBe("Bearer ses_1");
    expect(out.seen[0].lang).toBe("fr-CH");
    expect(out.seen[0].key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(out.seen[0].ua).toBeNull();
    expect(out.meta.idempotencyKey).toBe(out.seen[0].key);
    expect(out.webhook).toBe("ticket.issued");
    expect(out.forged).toBe("WebhookVerificationError");
    // The request itself fails (no network in the sandbox), but as a typed NetworkError, not a TypeError.
    expect(out.nativeFetch).toMatch(/^network: .*Failed to fetch/);
  }, 90_000);
});
