/**
 * The shared token stores with real separate processes: N cold processes make one token request; a token the API
 * rejects (`401 invalid_token`) is replaced once for everyone, and only that token is dropped.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../../../scripts/test-postgres.mjs";
import type { TokenStore } from "../../src/index.ts";
import { postgresTokenStore } from "../../src/stores/postgres.ts";
import { sqliteTokenStore } from "../../src/stores/sqlite.ts";

const CHILD = fileURLToPath(new URL("./token-process.ts", import.meta.url));

/** The API: a token endpoint that answers only when `open()` is called, and a probe that echoes the bearer token. */
async function fakeApi() {
  const issued: string[] = [];
  const revoked = new Set<string>();
  let open: () => void = () => {};
  const gate = new Promise<void>((r) => {
    open = r;
  });
  const server: Server = createServer(async (req, res) => {
    for await (const _ of req);
    if (req.url === "/connect/token") {
      const token = `tok-${issued.length + 1}`;
      issued.push(token);
      await gate;
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ access_token: token, token_type: "Bearer", expires_in: 3600 }));
    }
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    if (revoked.has(token)) {
      res.writeHead(401, {
        "www-authenticate": 'Bearer error="invalid_token"',
        "content-type": "application/problem+json",
      });
      return res.end(JSON.stringify({ type: "about:blank", title: "invalid_token", status: 401 }));
    }
    res.writeHead(200, { "content-type": "text/plain" }).end(token);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, issued, revoked, open, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Child {
  asking: Promise<void>;
  result: Promise<{ status: number; token: string }>;
}

function child(kind: string, where: string, baseUrl: string): Child {
  const proc = spawn(process.execPath, ["--conditions=source", CHILD, kind, where, baseUrl], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  let asked: () => void = () => {};
  const asking = new Promise<void>((r) => {
    asked = r;
  });
  proc.stdout.on("data", (d) => {
    out += d;
    if (out.includes("asking\n")) asked();
  });
  proc.stderr.on("data", (d) => {
    err += d;
  });
  const result = new Promise<{ status: number; token: string }>((resolve, reject) =>
    proc.once("exit", (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split("\n").at(-1) as string))
        : reject(new Error(`token process exited ${code}: ${err}`)),
    ),
  );
  return { asking, result };
}

function tokenStoreSuite(
  kind: "sqlite" | "postgres",
  setup: () => Promise<{ where: string; store: TokenStore }>,
) {
  describe(`${kind} token store across processes`, () => {
    it("three cold processes share one token request; a rejected token is replaced once, for everyone", async () => {
      const { where, store } = await setup();
      const api = await fakeApi();
      try {
        const cold = [0, 1, 2].map(() => child(kind, where, api.url));
        // Hold the token answer until every process asked: without a shared lock each would request its own.
        await Promise.all(cold.map((c) => c.asking));
        api.open();
        const results = await Promise.all(cold.map((c) => c.result));
        expect(results).toEqual([0, 1, 2].map(() => ({ status: 200, token: "tok-1" })));
        expect(api.issued).toEqual(["tok-1"]);

        // The API revokes tok-1: the next process is refused once, drops it, and stores tok-2 for the others.
        api.revoked.add("tok-1");
        expect(await child(kind, where, api.url).result).toEqual({ status: 200, token: "tok-2" });
        const later = await Promise.all([0, 1, 2].map(() => child(kind, where, api.url).result));
        expect(later.map((r) => r.token)).toEqual(["tok-2", "tok-2", "tok-2"]);
        expect(api.issued).toEqual(["tok-1", "tok-2"]);

        // The one shared entry (the client's key: base URL, client id, scope) holds the replacement.
        expect((await store.get(`entrada:token:${api.url}:client_demo:Shop`))?.accessToken).toBe("tok-2");
      } finally {
        api.server.close();
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), "entrada-tokens-"));
let server: TestPostgres;
let pool: pg.Pool;
beforeAll(async () => {
  server = await startTestPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 4 });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

tokenStoreSuite("sqlite", async () => {
  const where = join(dir, "tokens.sqlite");
  return { where, store: sqliteTokenStore(where) };
});
tokenStoreSuite("postgres", async () => ({ where: server.url, store: postgresTokenStore(pool) }));

describe("deleting a rejected token", () => {
  for (const [kind, open] of [
    ["sqlite", () => sqliteTokenStore(join(dir, "delete.sqlite"))],
    ["postgres", () => postgresTokenStore(pool, { table: "tokens_delete" })],
  ] as const) {
    it(`${kind}: removes the key only while it still holds that token`, async () => {
      const store = open();
      await store.set("k", { accessToken: "tok-new", expiresAt: 2, refreshAt: 1, scope: "Shop" });
      await store.delete?.("k", "tok-old");
      expect(await store.get("k")).toEqual({
        accessToken: "tok-new",
        expiresAt: 2,
        refreshAt: 1,
        scope: "Shop",
      });
      await store.delete?.("k", "tok-new");
      expect(await store.get("k")).toBeUndefined();
    });
  }
});
