/**
 * The browser build under a strict Content-Security-Policy (no 'unsafe-eval'): bundled as a user's app would bundle
 * it (Vite, production), it holds no Ajv compiler and nothing that evaluates code; asking it for what needs run-time
 * compilation is a clear configuration error. The real-browser check (a CSP response header, the service worker,
 * real requests, zero violations) is e2e/tests/mock-csp.spec.ts.
 */

import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { browserApp, browserAppWithCompiler, bundleApp } from "../../bench/bundle.ts";
import { MockConfigError } from "../../src/core/validation.ts";
import { createEntradaMock, entradaDocument } from "../../src/index.ts";
import { bridgeMock } from "../../src/msw/bridge.ts";
import { mockBody } from "../helpers.ts";

/** What evaluates code at run time (and so needs 'unsafe-eval'). */
const EVAL = /\bnew Function\b|\bFunction\(|\beval\(/g;
/** Names only Ajv's compiler carries (its API and schema-compilation code), never its standalone output. */
const AJV_COMPILER = ["compileAsync", "addVocabulary", "removeKeyword", "strictSchema", "$dynamicAnchor"];

function compilerMarkers(code: string): string[] {
  return AJV_COMPILER.filter((name) => code.includes(name));
}

describe("the browser entry bundled by a user's bundler", () => {
  let browser = "";
  let withCompiler = "";
  beforeAll(async () => {
    const compiler = fileURLToPath(new URL("../../src/compiler/index.ts", import.meta.url));
    [browser, withCompiler] = await Promise.all([
      bundleApp("src/browser/index.ts", browserApp).then((b) => b.code),
      bundleApp("src/browser/index.ts", (entry) => browserAppWithCompiler(entry, compiler)).then(
        (b) => b.code,
      ),
    ]);
  }, 120_000);

  it("contains no Ajv compiler and no new Function / Function( / eval(", () => {
    expect(browser.match(EVAL) ?? []).toEqual([]);
    expect(compilerMarkers(browser)).toEqual([]);
  });

  it("contains the precompiled validators and the engine (the bundle is the real thing)", () => {
    expect(browser).toContain('"params listEvents query"');
    expect(browser).toContain("mockServiceWorker.js");
    expect(browser).toContain("application/problem+json");
  });

  it("the checks find the compiler when it is injected (they are not vacuous)", () => {
    expect(withCompiler.match(EVAL)?.length ?? 0).toBeGreaterThan(0);
    expect(compilerMarkers(withCompiler)).toEqual(AJV_COMPILER);
  });
});

describe("an engine without the run-time compiler (the browser build's)", () => {
  it("refuses response validation with a configuration error that names the alternatives", () => {
    for (const validateResponses of ["strict", "report"] as const) {
      expect(() => bridgeMock({ baseUrl: "http://localhost:5173/api", validateResponses })).toThrow(
        MockConfigError,
      );
    }
    expect(() => createEntradaMock({ validateResponses: "strict" })).toThrow(
      /Response validation \(`validateResponses`\) needs schemas compiled at run time.*@entrada\/mock-server\/compiler/s,
    );
  });

  it("refuses a custom document (its validators are not precompiled)", () => {
    const custom = { ...entradaDocument, info: { title: "Mine", version: "1" } } as typeof entradaDocument;
    expect(() => createEntradaMock({ document: custom })).toThrow(/A custom OpenAPI document needs schemas/);
    expect(() => createEntradaMock({ precompiledValidators: false })).toThrow(MockConfigError);
  });

  it("validates requests with the precompiled validators: 400 problem+json with pointers", async () => {
    const core = createEntradaMock({ rateLimit: false });
    const token = await core.handle({
      method: "POST",
      url: "http://mock.test/connect/token",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      },
      body: new TextEncoder().encode("grant_type=client_credentials"),
    });
    const { access_token } = mockBody(token, "createToken");
    const response = await core.handle({
      method: "GET",
      url: "http://mock.test/shop/v1/discovery/events?limit=abc",
      headers: { authorization: `Bearer ${access_token}`, "accept-language": "en-GB" },
      body: null,
    });
    expect(response.status).toBe(400);
    expect(response.headers["content-type"]).toBe("application/problem+json");
    expect(JSON.parse(String(response.body)).errors).toEqual([
      expect.objectContaining({ pointer: "/query/limit" }),
    ]);
  });
});
