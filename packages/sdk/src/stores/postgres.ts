/**
 * `@entrada/sdk/postgres`: the webhook inbox and shared OAuth tokens in PostgreSQL, for several replicas on several
 * hosts. Pass a `pg` `Pool` (`pg` is an optional peer dependency: the SDK never imports it, it only calls `query`
 * and `connect` on what you pass). Tables are created on first use, under an advisory lock so replicas starting
 * together do not race.
 */
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

type Row = Record<string, unknown>;

/** What the stores use of `pg`'s `Pool` (`pg.Pool`, or anything with the same `query` and `connect`). */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Row[]; rowCount: number | null }>;
}
export interface PgPool extends PgQueryable {
  connect(): Promise<PgQueryable & { release(error?: Error | boolean): void }>;
}

export interface PostgresStoreOptions {
  /** Table name (default `entrada_webhook_inbox`, or `entrada_oauth_tokens` for tokens). */
  table?: string;
}

/**
 * A store's connection to its table: `ready()` runs the DDL once (in a transaction under an advisory lock; a failed
 * attempt is repeated on the next call), `query` runs after it.
 */
function table(pool: PgPool, name: string, ddl: string) {
  let done: Promise<void> | undefined;
  const ready = (): Promise<void> => {
    done ??= (async () => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [`entrada:${name}`]);
        await client.query(ddl);
        await client.query("COMMIT");
        client.release();
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        client.release(true);
        throw error;
      }
    })().catch((error: unknown) => {
      done = undefined;
      throw error;
    });
    return done;
  };
  return {
    ready,
    query: async (text: string, values: unknown[]) => {
      await ready();
      return pool.query(text, values);
    },
  };
}

/**
 * The webhook inbox's table in PostgreSQL, shared by every replica: claims take rows with
 * `FOR UPDATE SKIP LOCKED`, so replicas never wait on each other's rows nor take the same one.
 * @example createWebhookInbox({ secrets, handle, store: postgresInboxStore(new pg.Pool({ connectionString })) })
 */
export function postgresInboxStore(pool: PgPool, options: PostgresStoreOptions = {}): InboxStore {
  const t = tableName(options.table ?? "entrada_webhook_inbox");
  const { query } = table(
    pool,
    t,
    `CREATE TABLE IF NOT EXISTS ${t} (
      id text PRIMARY KEY,
      type text NOT NULL,
      body text NOT NULL,
      received_at bigint NOT NULL,
      status text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      due_at bigint,
      owner text,
      last_error text,
      finished_at bigint
    );
    CREATE INDEX IF NOT EXISTS ${t}_due ON ${t} (due_at) WHERE due_at IS NOT NULL;
    CREATE INDEX IF NOT EXISTS ${t}_finished ON ${t} (finished_at) WHERE finished_at IS NOT NULL;`,
  );
  const changed = (result: { rowCount: number | null }) => (result.rowCount ?? 0) > 0;
  return {
    name: "postgres",
    async add(row) {
      return changed(
        await query(
          `INSERT INTO ${t} (id, type, body, received_at, status, due_at) VALUES ($1, $2, $3, $4, 'pending', $4)
           ON CONFLICT (id) DO NOTHING`,
          [row.id, row.type, row.body, row.receivedAt],
        ),
      );
    },
    async claim({ now, limit, owner, leaseUntil }) {
      const { rows } = await query(
        // Materialised, so the locking subquery runs once and the LIMIT holds (an inlined one may be re-run).
        `WITH due AS MATERIALIZED (
           SELECT id FROM ${t} WHERE due_at <= $3 ORDER BY due_at, received_at LIMIT $4 FOR UPDATE SKIP LOCKED
         )
         UPDATE ${t} AS inbox SET status = 'running', owner = $1, attempts = inbox.attempts + 1, due_at = $2
         FROM due WHERE inbox.id = due.id
         RETURNING inbox.*`,
        [owner, leaseUntil, now, limit],
      );
      return rows.map(inboxRecord);
    },
    async complete(id, owner, now) {
      return changed(
        await query(
          `UPDATE ${t} SET status = 'done', due_at = NULL, owner = NULL, finished_at = $1
           WHERE id = $2 AND owner = $3 AND status = 'running'`,
          [now, id, owner],
        ),
      );
    },
    async fail(id, owner, error, retryAt, now) {
      return changed(
        await query(
          `UPDATE ${t} SET status = CASE WHEN $1::bigint IS NULL THEN 'dead' ELSE 'pending' END, due_at = $1,
             owner = NULL, last_error = $2, finished_at = CASE WHEN $1::bigint IS NULL THEN $3::bigint END
           WHERE id = $4 AND owner = $5 AND status = 'running'`,
          [retryAt, error.slice(0, MAX_ERROR_LENGTH), now, id, owner],
        ),
      );
    },
    async replay(id, now) {
      return changed(
        await query(
          `UPDATE ${t} SET status = 'pending', due_at = $1, attempts = 0, owner = NULL, finished_at = NULL
           WHERE id = $2 AND status IN ('dead', 'done')`,
          [now, id],
        ),
      );
    },
    async get(id) {
      const { rows } = await query(`SELECT * FROM ${t} WHERE id = $1`, [id]);
      return rows[0] ? inboxRecord(rows[0]) : undefined;
    },
    async counts(now) {
      const { rows } = await query(
        `SELECT
           COUNT(*) FILTER (WHERE status = 'pending' OR (status = 'running' AND due_at <= $1)) AS pending,
           COUNT(*) FILTER (WHERE status = 'running' AND due_at > $1) AS in_flight,
           COUNT(*) FILTER (WHERE status = 'dead') AS dead,
           COUNT(*) FILTER (WHERE status = 'done') AS done,
           MIN(received_at) FILTER (WHERE status = 'pending' OR (status = 'running' AND due_at <= $1)) AS oldest
         FROM ${t}`,
        [now],
      );
      return inboxCounts(rows[0] ?? {});
    },
    async prune(doneBefore, deadBefore, limit) {
      const result = await query(
        `DELETE FROM ${t} WHERE id IN (SELECT id FROM ${t} WHERE finished_at IS NOT NULL AND
           ((status = 'done' AND finished_at < $1) OR (status = 'dead' AND finished_at < $2)) LIMIT $3)`,
        [doneBefore, deadBefore, limit],
      );
      return result.rowCount ?? 0;
    },
  };
}

/**
 * OAuth tokens shared by every replica: N cold processes make one token request, a refresh is single-flight across
 * processes (a session advisory lock, released by PostgreSQL if its holder dies), and a `401 invalid_token` deletes
 * exactly the rejected token.
 * @example createClient({ baseUrl, clientId, clientSecret, tokenStore: postgresTokenStore(pool) })
 */
export function postgresTokenStore(
  pool: PgPool,
  options: PostgresStoreOptions & { lockTimeoutMs?: number } = {},
): TokenStore {
  const t = tableName(options.table ?? "entrada_oauth_tokens");
  const { ready, query } = table(
    pool,
    t,
    `CREATE TABLE IF NOT EXISTS ${t} (
      key text PRIMARY KEY,
      access_token text NOT NULL,
      expires_at bigint NOT NULL,
      refresh_at bigint,
      scope text
    )`,
  );
  return {
    async get(key) {
      const { rows } = await query(`SELECT * FROM ${t} WHERE key = $1`, [key]);
      return rows[0] ? storedToken(rows[0]) : undefined;
    },
    async set(key, token) {
      await query(
        `INSERT INTO ${t} (key, access_token, expires_at, refresh_at, scope) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (key) DO UPDATE SET access_token = $2, expires_at = $3, refresh_at = $4, scope = $5`,
        [key, token.accessToken, token.expiresAt, token.refreshAt ?? null, token.scope ?? null],
      );
    },
    async delete(key, accessToken) {
      await query(`DELETE FROM ${t} WHERE key = $1 AND ($2::text IS NULL OR access_token = $2)`, [
        key,
        accessToken ?? null,
      ]);
    },
    async exclusive(key, work) {
      await ready();
      const client = await pool.connect();
      let broken = false;
      try {
        // A waiter gives up after the timeout (the cache then requests on its own): a stuck holder never blocks all.
        await client.query("SELECT set_config('lock_timeout', $1, false)", [
          `${options.lockTimeoutMs ?? 30_000}`,
        ]);
        await client.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [`${t}:${key}`]);
      } catch (error) {
        client.release(true);
        throw error;
      }
      try {
        return await work();
      } finally {
        await client
          .query(
            "SELECT pg_advisory_unlock(hashtextextended($1, 0)), set_config('lock_timeout', '0', false)",
            [`${t}:${key}`],
          )
          .catch(() => {
            broken = true;
          });
        // A connection whose unlock failed is closed, which ends its session and so releases the lock.
        client.release(broken);
      }
    },
  };
}
