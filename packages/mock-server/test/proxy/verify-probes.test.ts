/**
 * `entrada-mock verify` probing like a test suite, over real HTTP (issue 31): against an upstream that accepts any
 * token and answers 200 for an unknown OData key it fails naming each case; against servers that hang, answer HTML
 * or close connections it ends with a report per operation and exit 1, never a stack trace; the JUnit report keeps
 * one test case per operation and rule; unknown ids match their parameter's pattern.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getPointer } from "../../src/core/document.ts";
import { entradaDocument } from "../../src/index.ts";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { verifyMain } from "../../src/node/verify/main.ts";
import { unknownId } from "../../src/node/verify/unknown-ids.ts";
import { read } from "../helpers.ts";
import { clientGrant, clientToken, listen, startRewritingUpstream } from "./rewriting-upstream.ts";

async function verify(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await verifyMain(args, { out: (l) => out.push(l), err: (l) => err.push(l) }, {});
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** The failing cases of the output (`✗ <name>`). */
function failing(out: string): string[] {
  return out
    .split("\n")
    .filter((l) => l.startsWith("  ✗ "))
    .map((l) => l.slice(4));
}

function serve(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  return listen(createServer(handler));
}

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ port: 0, docs: false, rateLimit: false, webhooks: false });
});
afterAll(() => mock.close());

describe("unknown ids", () => {
  it("match each path parameter's pattern (an unknown pay_… for ^pay_…)", () => {
    const pointer = "/components/schemas/PaymentId";
    const pattern = (getPointer(entradaDocument, pointer) as { pattern: string }).pattern;
    const id = unknownId(pointer) ?? "";
    expect(id.startsWith("pay_")).toBe(true);
    expect(new RegExp(pattern).test(id)).toBe(true);
  });
});

describe("an upstream that accepts any token and answers 200 for an unknown OData key", () => {
  let permissive: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    const own = await clientToken(mock.url, undefined, "Shop TERP");
    permissive = await startRewritingUpstream(mock.url, {
      // Any token, or none, is as good as its own.
      request: (path, headers) => {
        if (!path.startsWith("/connect/token")) headers.set("authorization", `Bearer ${own}`);
      },
      // An unknown OData key: the first entity instead of a 404.
      response: async (path, answer, headers) => {
        if (answer.status !== 404 || !/^\/bi\/v1\/odata\/Orders\(/.test(path)) return answer;
        const list = await read.odataPage(await fetch(`${mock.url}/bi/v1/odata/Orders?$top=1`, { headers }));
        return new Response(JSON.stringify(list.value[0] ?? {}), {
          status: 200,
          headers: { "content-type": "application/json", "odata-version": "4.0" },
        });
      },
    });
  });
  afterAll(() => permissive.close());

  it("fails naming each case: every protected operation's auth probes and the unknown key; JUnit per operation and rule", async () => {
    const dir = mkdtempSync(join(tmpdir(), "entrada-verify-probes-"));
    const junit = join(dir, "report.xml");
    const result = await verify(["--base-url", permissive.url, "--read-only", "--junit", junit]);
    expect(result.code).toBe(1);
    expect(result.err).toBe("");
    const cases = failing(result.out);
    expect(cases).toContain("getBiEntity");
    expect(result.out).toMatch(
      /getBiEntity {2}unknown-id {2}\/status {2}An unknown id \(key 'verify-unknown'\) must be a 404/,
    );
    for (const operation of ["getCart", "listEvents", "getOrder", "listGates", "getWebhookSubscription"]) {
      expect(cases).toContain(`${operation}: no token`);
      expect(cases).toContain(`${operation}: forged token`);
      expect(cases).toContain(`${operation}: token without the scope`);
    }
    // Public images take no token, but one that is sent is checked: still probed.
    expect(cases).not.toContain("getImage: no token");
    expect(cases).toContain("getImage: forged token");
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('<testsuite name="entrada-mock verify: authentication"');
    expect(xml).toMatch(
      /<testcase classname="entrada.verify.authentication" name="getCart: no token"[^>]*><failure/,
    );
    expect(xml).toMatch(
      /<testcase classname="entrada.verify.operations" name="getBiEntity(?: \[unknown-id\])?"[^>]*><failure[^>]*type="unknown-id"/,
    );
  });
});

describe("an expired token", () => {
  it("the mock: made in a session of its own whose clock moves past its lifetime, refused on every protected operation", async () => {
    const result = await verify(["--base-url", mock.url, "--read-only"]);
    const expired = result.out.split("\n").filter((l) => l.includes(": expired token"));
    expect(expired).toContain("  ✓ getCart: expired token");
    expect(expired).toContain("  ✓ getImage: expired token");
    expect(expired.filter((l) => l.startsWith("  ✓ ")).length).toBeGreaterThan(20);
    expect(expired.filter((l) => !l.startsWith("  ✓ ") && !l.includes("a write; not sent"))).toEqual([]);
    expect(failing(result.out)).toEqual([]);
    expect(result.code).toBe(0);
    // The session it moved is gone; the default session's clock was not touched.
    const sessions = JSON.stringify(await (await fetch(`${mock.url}/__mock/sessions`)).json());
    expect(sessions).not.toContain("verify-expired-");
    const clock = await read.clock(await fetch(`${mock.url}/__mock/clock`));
    expect(Math.abs(clock.epochMs - Date.now())).toBeLessThan(60_000);
  });

  it("--expired-token: an upstream that still accepts it fails naming each operation's case", async () => {
    const session = { "x-mock-session": "verify-test-expired" };
    const { access_token: stale, expires_in } = await clientGrant(mock.url, undefined, "Shop TERP", session);
    await fetch(`${mock.url}/__mock/clock`, {
      method: "POST",
      headers: { ...session, "content-type": "application/json" },
      body: JSON.stringify({ advanceSeconds: expires_in + 60 }),
    });
    const own = await clientToken(mock.url, undefined, "Shop TERP");
    // Expiry not checked: the stale token is as good as a fresh one.
    const lax = await startRewritingUpstream(mock.url, {
      request: (_path, headers) => {
        if (headers.get("authorization") === `Bearer ${stale}`) headers.set("authorization", `Bearer ${own}`);
      },
    });
    try {
      const result = await verify(["--base-url", lax.url, "--read-only", "--expired-token", stale]);
      expect(result.code).toBe(1);
      const cases = failing(result.out);
      for (const operation of ["getCart", "listEvents", "getOrder", "getImage"])
        expect(cases).toContain(`${operation}: expired token`);
      expect(cases.filter((c) => !c.endsWith(": expired token"))).toEqual([]);
      expect(result.out).toMatch(/listEvents {2}auth {2}\/status {2}Expected 401 invalid_token, got 200/);
    } finally {
      await lax.close();
      await fetch(`${mock.url}/__mock/sessions/verify-test-expired`, { method: "DELETE" });
    }
  });
});

describe("a rate-limited server", () => {
  it("an authentication probe answered 429 with a short Retry-After is sent again once, not reported", async () => {
    const limited = new Set<string>();
    const upstream = await startRewritingUpstream(mock.url, {
      response: (path, answer, headers) => {
        const forged = headers.get("authorization")?.startsWith("Bearer verify-forged") === true;
        // (Not the BI feed: its errors are OData JSON, not problem+json.)
        if (!forged || path.startsWith("/bi/") || limited.has(path)) return answer;
        limited.add(path);
        return new Response(
          JSON.stringify({
            type: "https://docs.entrada.dev/problems/rate-limited",
            title: "Too many requests",
            status: 429,
          }),
          { status: 429, headers: { "content-type": "application/problem+json", "retry-after": "0" } },
        );
      },
    });
    try {
      const result = await verify(["--base-url", upstream.url, "--read-only"]);
      expect(limited.size).toBeGreaterThan(20);
      expect(failing(result.out)).toEqual([]);
      expect(result.code).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});

describe("servers that do not answer like an API", () => {
  const servers: Array<[string, (req: IncomingMessage, res: ServerResponse) => void]> = [
    ["hangs", () => {}],
    [
      "answers HTML",
      (_req, res) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><title>Welcome</title><p>It works!</p>");
      },
    ],
    ["closes connections", (req) => req.socket.destroy()],
  ];
  for (const [what, handler] of servers) {
    it(`${what}: a report per operation and exit 1, never a stack trace`, async () => {
      const server = await serve(handler);
      try {
        const result = await verify(["--base-url", server.url, "--read-only", "--timeout", "200"]);
        expect(result.code).toBe(1);
        expect(`${result.out}\n${result.err}`).not.toMatch(/\n\s+at /);
        const cases = failing(result.out);
        for (const name of ["getSystemConfiguration", "listEvents", "getCart", "getCart: no token"])
          expect(cases).toContain(name);
        // Not the mock and no --expired-token: skipped, saying how to run them.
        expect(result.out).toContain(
          "- getCart: expired token  (skipped: no expired token: pass one kept from an earlier run with --expired-token <token> (or ENTRADA_EXPIRED_TOKEN))",
        );
        if (what !== "answers HTML") expect(result.out).toMatch(/listEvents {2}network {2}\/ {2}/);
        else expect(result.out).toMatch(/listEvents {2}(media-type|json|status)/);
      } finally {
        await server.close();
      }
    });
  }
});
