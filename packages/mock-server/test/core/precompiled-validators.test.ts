/**
 * Request validation without `new Function` (a strict CSP without 'unsafe-eval'): the bundled contract's request
 * validators are precompiled (Ajv standalone, `src/generated/validators-*.js`) and give the same problems as the
 * run-time compiled ones; the generated files are fresh.
 */

import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import type { MockResponse } from "../../src/core/types.ts";
import { createEntradaMock } from "../../src/index.ts";

function client(precompiledValidators: boolean) {
  const core = createEntradaMock({
    rateLimit: false,
    precompiledValidators,
    schemaCompiler: ajvSchemaCompiler,
  });
  const send = (method: string, path: string, headers: Record<string, string>, body?: string) =>
    core.handle({
      method,
      url: `http://mock.test${path}`,
      headers: { "accept-language": "en-GB", ...headers },
      body: body === undefined ? null : new TextEncoder().encode(body),
    });
  return send;
}

/** Runs `fn` with `Function` (and so `new Function`) throwing, as a strict CSP does in a browser. */
async function withoutEval<T>(fn: () => Promise<T>): Promise<T> {
  const original = globalThis.Function;
  globalThis.Function = new Proxy(original, {
    apply() {
      throw new EvalError("Function() is blocked (CSP without 'unsafe-eval')");
    },
    construct() {
      throw new EvalError("new Function() is blocked (CSP without 'unsafe-eval')");
    },
  });
  try {
    return await fn();
  } finally {
    globalThis.Function = original;
  }
}

async function scenario(send: ReturnType<typeof client>): Promise<Array<[number, unknown]>> {
  const out: Array<[number, unknown]> = [];
  const body = (r: MockResponse) => JSON.parse(String(r.body));
  const form = {
    "content-type": "application/x-www-form-urlencoded",
    authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
  };
  const tokenRes = await send("POST", "/connect/token", form, "grant_type=client_credentials");
  out.push([tokenRes.status, Object.keys(body(tokenRes)).sort()]);
  const auth = { authorization: `Bearer ${body(tokenRes).access_token}` };
  for (const [method, path, json] of [
    ["GET", "/shop/v1/discovery/events?limit=abc&unknown=1", undefined],
    ["GET", "/shop/v1/discovery/events?limit=2", undefined],
    ["POST", "/shop/v1/cart", "{}"],
  ] as const) {
    const headers = json ? { ...auth, "content-type": "application/json" } : auth;
    const r = await send(method, path, headers, json);
    const b = body(r);
    out.push([r.status, r.status >= 400 ? b.errors : Object.keys(b).sort()]);
    if (method === "POST" && r.status === 201) {
      const bad = await send(
        "POST",
        `/shop/v1/cart/${b.id}/items`,
        { ...auth, "content-type": "application/json" },
        JSON.stringify({ articleId: 7, quantity: "x", extra: true }),
      );
      out.push([bad.status, body(bad).errors]);
    }
  }
  return out;
}

describe("precompiled request validators", () => {
  it("validate with Function disabled and answer exactly what the run-time compiled ones answer", async () => {
    const runtime = await scenario(client(false));
    const precompiled = await withoutEval(() => scenario(client(true)));
    expect(precompiled).toEqual(runtime);
    // The scenario exercised validation: a 400 with query errors and a 400 with body errors.
    expect(precompiled.map(([status]) => status)).toEqual([200, 400, 200, 201, 400]);
    expect(JSON.stringify(precompiled[1])).toContain("/query/limit");
    expect(JSON.stringify(precompiled[4])).toContain("/body/quantity");
  });

  it("the run-time compiler is what a strict CSP breaks (the check above is not vacuous)", async () => {
    const send = client(false);
    const form = {
      "content-type": "application/x-www-form-urlencoded",
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
    };
    const token = JSON.parse(
      String((await send("POST", "/connect/token", form, "grant_type=client_credentials")).body),
    );
    const r = await withoutEval(() =>
      send("GET", "/shop/v1/discovery/events?limit=abc", { authorization: `Bearer ${token.access_token}` }),
    );
    expect(r.status).toBe(500);
  });

  it("src/generated/validators-*.js are fresh (pnpm --filter @entrada/mock-server generate)", () => {
    const script = fileURLToPath(new URL("../../scripts/generate-validators.ts", import.meta.url));
    const run = spawnSync(
      process.execPath,
      [
        "--conditions=source",
        "--experimental-transform-types",
        "--disable-warning=ExperimentalWarning",
        script,
        "--check",
      ],
      { encoding: "utf8", timeout: 60_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
  });
});
