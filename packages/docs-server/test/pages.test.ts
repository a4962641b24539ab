import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createNodeDocsServer,
  type RunningDocsServer,
  referenceShell,
  startDocsServer,
} from "../src/index.ts";
import { callTool, conforms, startDocs } from "./helpers.ts";

let docs: RunningDocsServer;
beforeAll(async () => {
  docs = await startDocs();
});
afterAll(() => docs.close());

describe("server card, Markdown mirrors, reference and root", () => {
  it("publishes a server card that lists the same tools", async () => {
    const card = await (await fetch(`${docs.url}/.well-known/mcp/server-card.json`)).json();
    conforms("ServerCard", card);
    expect(card.transport).toEqual({ type: "streamable-http", endpoint: "/api/mcp", stateless: true });
    expect(card.tools.map((t: { name: string }) => t.name)).toHaveLength(6);
  });

  it("mirrors the index, modules, endpoints and all three guides as Markdown with ETags", async () => {
    const index = await (await fetch(`${docs.url}/ai/index.md`)).text();
    for (const guide of ["shop-front-end", "guidelines", "webhooks"])
      expect(index).toContain(`${docs.url}/ai/guide-${guide}.md`);
    const module = await (await fetch(`${docs.url}/ai/module-external-entrance.md`)).text();
    expect(module).toContain(`[\`createExternalImport\`](${docs.url}/ai/endpoint-createExternalImport.md)`);
    const guide = await fetch(`${docs.url}/ai/guide-shop-front-end.md`);
    expect(guide.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = await guide.text();
    for (const topic of [
      "## Mounting the widget",
      "## Configuration",
      "## Session tokens from your backend",
      "## Payment redirects",
      "## Analytics",
      "## Content-Security-Policy",
      "## Theming",
    ])
      expect(text).toContain(topic);
    const again = await fetch(`${docs.url}/ai/guide-shop-front-end.md`, {
      headers: { "if-none-match": guide.headers.get("etag") as string },
    });
    expect(again.status).toBe(304);
    const missing = await fetch(`${docs.url}/ai/module-nope.md`);
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "application/problem+json"]);
    expect((await missing.json()).detail).toBe("There is no page /ai/module-nope.md. See /ai/index.md.");
  });

  it("serves get_endpoint's text as /ai/endpoint-<operationId>.md, word for word", async () => {
    for (const operationId of ["checkoutCart", "createToken", "listBiOrders", "receiveCartCompletedEvent"]) {
      const tool = await callTool(docs.url, "get_endpoint", { endpoint: operationId });
      const mirror = await (await fetch(`${docs.url}/ai/endpoint-${operationId}.md`)).text();
      expect(mirror).toBe(`${tool.content[0]?.text}\n`);
    }
  });

  it("sends browsers from / and /docs to the HTML reference, and programs get the map of addresses", async () => {
    for (const path of ["/", "/docs", "/docs/"]) {
      const res = await fetch(`${docs.url}${path}`, { headers: { accept: "text/html" }, redirect: "manual" });
      expect([res.status, res.headers.get("location")]).toEqual([302, `${docs.url}/reference`]);
    }
    const map = await (await fetch(`${docs.url}/`, { headers: { accept: "application/json" } })).json();
    expect(map.links).toMatchObject({
      reference: `${docs.url}/reference`,
      markdown: `${docs.url}/ai/index.md`,
    });
  });

  it("serves the built reference (page, renderer, start script) under its CSP, or a 503 saying how to build it", async () => {
    const built = await startDocsServer({
      port: 0,
      referenceHtml: () => "<!doctype html><title>ref</title>",
      referenceScript: () => "/* renderer */",
    });
    const missing = await startDocsServer({
      port: 0,
      referenceHtml: () => null,
      referenceScript: () => null,
    });
    try {
      const page = await fetch(`${built.url}/reference`);
      expect([page.status, page.headers.get("content-type")]).toEqual([200, "text/html; charset=utf-8"]);
      expect(await page.text()).toBe("<!doctype html><title>ref</title>");
      // Scripts and requests from this origin only; nothing inline runs (no 'unsafe-inline' for scripts).
      const csp = page.headers.get("content-security-policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("connect-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      const script = await fetch(`${built.url}/reference/scalar.js`);
      expect([script.status, script.headers.get("content-type")]).toEqual([
        200,
        "text/javascript; charset=utf-8",
      ]);
      expect(await script.text()).toBe("/* renderer */");
      const etag = script.headers.get("etag") ?? "";
      expect(script.headers.get("vary")).toBe("accept-encoding");
      // Gzipped for clients that accept it (fetch decodes it again), as it is for identity.
      const zipped = await fetch(`${built.url}/reference/scalar.js`, {
        headers: { "accept-encoding": "gzip" },
      });
      expect(zipped.headers.get("content-encoding")).toBe("gzip");
      expect(await zipped.text()).toBe("/* renderer */");
      const identity = await fetch(`${built.url}/reference/scalar.js`, {
        headers: { "accept-encoding": "identity" },
      });
      expect(identity.headers.get("content-encoding")).toBeNull();
      expect(
        (await fetch(`${built.url}/reference/scalar.js`, { headers: { "if-none-match": etag } })).status,
      ).toBe(304);
      for (const path of ["/reference", "/reference/scalar.js"]) {
        const absent = await fetch(`${missing.url}${path}`);
        expect(absent.status).toBe(503);
        expect((await absent.json()).detail).toContain("pnpm --filter @entrada/docs-server build");
      }
    } finally {
      await built.close();
      await missing.close();
    }
  });

  it("writes the start script with the demo client when mounted in the API, and without credentials on its own", async () => {
    const alone = createNodeDocsServer();
    const mounted = createNodeDocsServer({
      tryIt: { clientId: "entrada-demo", clientSecret: "demo-secret", scopes: ["Shop", "TERP"] },
    });
    const start = async (server: ReturnType<typeof createNodeDocsServer>) =>
      (await server.fetch(new Request("http://docs.test/reference/start.js")))?.text();
    const plain = await start(alone);
    expect(plain).toContain("const client = null;");
    expect(plain).toContain('url: "/reference/openapi.json"');
    const tryIt = await start(mounted);
    expect(tryIt).toContain(
      'const client = {"clientId":"entrada-demo","clientSecret":"demo-secret","scopes":["Shop","TERP"]};',
    );
    // Offline: the renderer's web fonts and its hosted services stay off.
    expect(tryIt).toContain("withDefaultFonts: false");
    expect(tryIt).toContain('fetch("/connect/token"');
    // Valid script (a syntax error would leave the page blank).
    for (const script of [plain, tryIt]) expect(() => new Function(script ?? "")).not.toThrow();
  });

  it("builds a page shell that loads only same-origin scripts", () => {
    const html = referenceShell("Entrada <API>");
    expect(html).toContain("<title>Entrada &lt;API&gt;</title>");
    expect([...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1])).toEqual([
      ' src="/reference/scalar.js"',
      ' src="/reference/start.js"',
    ]);
  });

  it("renders the reference from the contract plus the guides as documentation tags, one source", () => {
    const server = createNodeDocsServer();
    return server.fetch(new Request("http://docs.test/reference/openapi.json")).then(async (res) => {
      const doc = await res?.json();
      expect(doc["x-tagGroups"].map((g: { name: string }) => g.name)).toEqual(["Guides", "API"]);
      const webhooks = doc.tags.find((t: { name: string }) => t.name === "guide-webhooks");
      expect(webhooks).toMatchObject({ "x-traitTag": true, "x-displayName": "Webhooks" });
      const guide = server.snapshot.guides.find((g) => g.name === "webhooks");
      expect(`# Webhooks\n\n${webhooks.description}`).toBe(guide?.markdown);
      expect(doc.paths["/shop/v1/cart/{id}/checkout"].post.operationId).toBe("checkoutCart");
    });
  });
});
