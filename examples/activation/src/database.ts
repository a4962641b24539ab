/**
 * Where the inbox and the shared OAuth token live, from `ACTIVATION_DATABASE_URL`: a file path (SQLite, the default
 * `activation.sqlite`: one process, or several on one host) or a `postgres://` URL (PostgreSQL, shared by replicas
 * on any number of hosts).
 */

import type { TokenStore } from "@entrada/sdk";
import { postgresInboxStore, postgresTokenStore } from "@entrada/sdk/postgres";
import { sqliteInboxStore, sqliteTokenStore } from "@entrada/sdk/sqlite";
import type { InboxStore } from "@entrada/sdk/webhooks";
import pg from "pg";

export interface Database {
  /** `sqlite:<path>` or `postgres://host/db` (no password), for the log. */
  label: string;
  inbox: InboxStore;
  tokens: TokenStore;
  close(): Promise<void>;
}

export function openDatabase(url: string): Database {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection PostgreSQL dropped (a restart) must not crash the process: the pool replaces it.
    pool.on("error", () => {});
    const where = new URL(url);
    return {
      label: `postgres://${where.host}${where.pathname}`,
      inbox: postgresInboxStore(pool),
      tokens: postgresTokenStore(pool),
      close: () => pool.end(),
    };
  }
  const path = url.replace(/^sqlite:/, "");
  const inbox = sqliteInboxStore(path);
  const tokens = sqliteTokenStore(path);
  return {
    label: `sqlite:${path}`,
    inbox,
    tokens,
    async close() {
      await inbox.close();
      await tokens.close();
    },
  };
}
