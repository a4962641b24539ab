/**
 * `@entrada/sdk/sqlite`: the webhook inbox and shared OAuth tokens in one SQLite file, on Node's built-in
 * `node:sqlite` (Node 22.13+; no dependency). The embedded default: processes on one host share the file (WAL mode,
 * a busy timeout), every write is committed with `synchronous=FULL` before the call resolves. For replicas on
 * several hosts use `@entrada/sdk/postgres`.
 */
import { DatabaseSync } from "node:sqlite";
import type { TokenStore } from "../core/token-cache.ts";
import {
  type InboxStore,
  inboxCounts,
  inboxRecord,
  MAX_ERROR_LENGTH,
  tableName,
} from "../webhooks/inbox-store.ts";
import { storedToken } from "./token-row.ts";

export type { InboxStore, TokenStore };

export interface SqliteStoreOptions {
  /** Table name (default `entrada_webhook_inbox`, or `entrada_oauth_tokens` for tokens). */
  table?: string;
  /** How long a write waits for another process's lock (default 5 s). */
  busyTimeoutMs?: number;
}

function open(file: string | DatabaseSync, busyTimeoutMs = 5000): DatabaseSync {
  if (typeof file !== "string") return file;
  const db = new DatabaseSync(file, { timeout: busyTimeoutMs });
  // WAL lets readers and one writer work at once across processes; FULL syncs each commit, so an acknowledged
  // delivery survives a power cut as well as a crash.
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;");
  return db;
}

type Row = Record<string, unknown>;

/**
 * The webhook inbox's table in a SQLite file (created on first use).
 * @param file a path (created if missing), or an open `DatabaseSync`
 * @example createWebhookInbox({ secrets, handle, store: sqliteInboxStore("inbox.sqlite") })
 */
export function sqliteInboxStore(
  file: string | DatabaseSync,
  options: SqliteStoreOptions = {},
): InboxStore & { close(): Promise<void> } {
  const t = tableName(options.table ?? "entrada_webhook_inbox");
  const db = open(file, options.busyTimeoutMs);
  db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER,
    owner TEXT,
    last_error TEXT,
    finished_at INTEGER
  );
  CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (due_at) WHERE due_at IS NOT NULL;
  CREATE INDEX IF NOT EXISTS ${t}_finished ON ${t} (finished_at) WHERE finished_at IS NOT NULL;`);
  const insert = db.prepare(
    `INSERT INTO ${t} (id, type, body, received_at, status, due_at) VALUES (?, ?, ?, ?, 'pending', ?)
     ON CONFLICT (id) DO NOTHING`,
  );
  // SQLite has one writer at a time, so this one statement is the atomic claim.
  const claim = db.prepare(
    `UPDATE ${t} SET status = 'running', owner = ?, attempts = attempts + 1, due_at = ?
     WHERE id IN (SELECT id FROM ${t} WHERE due_at <= ? ORDER BY due_at, received_at LIMIT ?)
     RETURNING *`,
  );
  const complete = db.prepare(
    `UPDATE ${t} SET status = 'done', due_at = NULL, owner = NULL, finished_at = ?
     WHERE id = ? AND owner = ? AND status = 'running'`,
  );
  const fail = db.prepare(
    `UPDATE ${t} SET status = CASE WHEN ? IS NULL THEN 'dead' ELSE 'pending' END, due_at = ?, owner = NULL,
       last_error = ?, finished_at = CASE WHEN ? IS NULL THEN ? ELSE NULL END
     WHERE id = ? AND owner = ? AND status = 'running'`,
  );
  const replay = db.prepare(
    `UPDATE ${t} SET status = 'pending', due_at = ?, attempts = 0, owner = NULL, finished_at = NULL
     WHERE id = ? AND status IN ('dead', 'done')`,
  );
  const get = db.prepare(`SELECT * FROM ${t} WHERE id = ?`);
  const counts = db.prepare(
    `SELECT
       COUNT(*) FILTER (WHERE status = 'pending' OR (status = 'running' AND due_at <= ?1)) AS pending,
       COUNT(*) FILTER (WHERE status = 'running' AND due_at > ?1) AS in_flight,
       COUNT(*) FILTER (WHERE status = 'dead') AS dead,
       COUNT(*) FILTER (WHERE status = 'done') AS done,
       MIN(received_at) FILTER (WHERE status = 'pending' OR (status = 'running' AND due_at <= ?1)) AS oldest
     FROM ${t}`,
  );
  const prune = db.prepare(
    `DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE finished_at IS NOT NULL AND
       ((status = 'done' AND finished_at < ?) OR (status = 'dead' AND finished_at < ?)) LIMIT ?)`,
  );
  const changed = (result: { changes: number | bigint }) => Number(result.changes) > 0;
  return {
    name: `sqlite:${typeof file === "string" ? file : "(database)"}`,
    async add(row) {
      return changed(insert.run(row.id, row.type, row.body, row.receivedAt, row.receivedAt));
    },
    async claim({ now, limit, owner, leaseUntil }) {
      return (claim.all(owner, leaseUntil, now, limit) as Row[]).map(inboxRecord);
    },
    async complete(id, owner, now) {
      return changed(complete.run(now, id, owner));
    },
    async fail(id, owner, error, retryAt, now) {
      return changed(fail.run(retryAt, retryAt, error.slice(0, MAX_ERROR_LENGTH), retryAt, now, id, owner));
    },
    async replay(id, now) {
      return changed(replay.run(now, id));
    },
    async get(id) {
      const row = get.get(id) as Row | undefined;
      return row ? inboxRecord(row) : undefined;
    },
    async counts(now) {
      return inboxCounts(counts.get(now) as Row);
    },
    async prune(doneBefore, deadBefore, limit) {
      return Number(prune.run(doneBefore, deadBefore, limit).changes);
    },
    async close() {
      if (typeof file === "string" && db.isOpen) db.close();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * OAuth tokens shared by the processes of one host through a SQLite file: N cold processes make one token request,
 * a refresh is single-flight across them (a lease row: the holder's lease ends after `leaseMs` even if it dies),
 * and a `401 invalid_token` deletes exactly the rejected token.
 * @example createClient({ baseUrl, clientId, clientSecret, tokenStore: sqliteTokenStore("tokens.sqlite") })
 */
export function sqliteTokenStore(
  file: string | DatabaseSync,
  options: SqliteStoreOptions & { leaseMs?: number } = {},
): TokenStore & { close(): Promise<void> } {
  const t = tableName(options.table ?? "entrada_oauth_tokens");
  const leaseMs = options.leaseMs ?? 30_000;
  const db = open(file, options.busyTimeoutMs);
  db.exec(`CREATE TABLE IF NOT EXISTS ${t} (
    key TEXT PRIMARY KEY,
    access_token TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    refresh_at INTEGER,
    scope TEXT
  );
  CREATE TABLE IF NOT EXISTS ${t}_leases (key TEXT PRIMARY KEY, holder TEXT NOT NULL, until INTEGER NOT NULL);`);
  const get = db.prepare(`SELECT * FROM ${t} WHERE key = ?`);
  const set = db.prepare(
    `INSERT INTO ${t} (key, access_token, expires_at, refresh_at, scope) VALUES (?1, ?2, ?3, ?4, ?5)
     ON CONFLICT (key) DO UPDATE SET access_token = ?2, expires_at = ?3, refresh_at = ?4, scope = ?5`,
  );
  const remove = db.prepare(`DELETE FROM ${t} WHERE key = ?1 AND (?2 IS NULL OR access_token = ?2)`);
  // Taken when free or when the holder's lease ran out (it crashed or hung).
  const take = db.prepare(
    `INSERT INTO ${t}_leases (key, holder, until) VALUES (?1, ?2, ?3)
     ON CONFLICT (key) DO UPDATE SET holder = ?2, until = ?3 WHERE until <= ?4`,
  );
  const free = db.prepare(`DELETE FROM ${t}_leases WHERE key = ? AND holder = ?`);
  return {
    async get(key) {
      const row = get.get(key) as Row | undefined;
      return row ? storedToken(row) : undefined;
    },
    async set(key, token) {
      set.run(key, token.accessToken, token.expiresAt, token.refreshAt ?? null, token.scope ?? null);
    },
    async delete(key, accessToken) {
      remove.run(key, accessToken ?? null);
    },
    async exclusive(key, work) {
      const holder = `${Date.now().toString(36)}.${Math.random().toString(36).slice(2)}`;
      const giveUp = Date.now() + leaseMs;
      // Waiting is polling: SQLite has no lock a process can wait on without blocking its event loop.
      while (Number(take.run(key, holder, Date.now() + leaseMs, Date.now()).changes) === 0) {
        if (Date.now() > giveUp) throw new Error(`Token lease "${key}" is held by another process`);
        await sleep(20);
      }
      try {
        return await work();
      } finally {
        free.run(key, holder);
      }
    },
    async close() {
      if (typeof file === "string" && db.isOpen) db.close();
    },
  };
}
