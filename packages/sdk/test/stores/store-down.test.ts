/**
 * Stores that cannot write, for real: a PostgreSQL that is not there and a SQLite file opened read-only (as after
 * a disk-full remount). The endpoint answers 503 and acknowledges nothing, so the sender retries; the worker logs
 * what to check and keeps trying.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { postgresInboxStore } from "../../src/stores/postgres.ts";
import { sqliteInboxStore } from "../../src/stores/sqlite.ts";
import { createWebhookInbox, type InboxStore, signWebhook } from "../../src/webhooks/index.ts";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const dir = mkdtempSync(join(tmpdir(), "entrada-down-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (taken, then released). */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

async function refuses(store: InboxStore) {
  const log: string[] = [];
  const inbox = createWebhookInbox({
    secrets: SECRET,
    store,
    handle: () => {},
    log: (l) => void log.push(l),
  });
  const body = JSON.stringify({ type: "cart.completed", timestamp: "2027-01-15T08:00:00Z", data: {} });
  const headers = await signWebhook({ id: "msg_down", body, secret: SECRET });
  const answer = await inbox.handler(new Request("http://inbox.test/", { method: "POST", headers, body }));
  expect(answer.status).toBe(503);
  expect(answer.headers.get("retry-after")).toBe("30");
  expect(log.join("\n")).toMatch(/could not store delivery msg_down in .*answered 503 so the sender retries/);

  const stop = new AbortController();
  const worker = inbox.start({ signal: stop.signal, pollMs: 5 });
  await expect.poll(() => log.some((l) => l.includes("cannot claim deliveries"))).toBe(true);
  stop.abort();
  await worker;
  expect(log.find((l) => l.includes("cannot claim deliveries"))).toMatch(
    /check that the database is reachable/,
  );
}

describe("a store that cannot write", () => {
  it("PostgreSQL down: 503, nothing acknowledged; the worker keeps retrying", async () => {
    const pool = new pg.Pool({
      connectionString: `postgres://postgres@127.0.0.1:${await closedPort()}/postgres`,
    });
    try {
      await refuses(postgresInboxStore(pool));
    } finally {
      await pool.end();
    }
  });

  it("SQLite read-only (disk full, remounted): 503, nothing acknowledged", async () => {
    const file = join(dir, "inbox.sqlite");
    await sqliteInboxStore(file).close(); // the table exists
    const readOnly = new DatabaseSync(file, { readOnly: true });
    try {
      await refuses(sqliteInboxStore(readOnly));
      expect(readOnly.prepare("SELECT COUNT(*) AS n FROM entrada_webhook_inbox").get()).toEqual({ n: 0 });
    } finally {
      readOnly.close();
    }
  });
});
