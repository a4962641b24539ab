import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../../../scripts/test-postgres.mjs";
import { postgresInboxStore } from "../../src/stores/postgres.ts";
import type { InboxStore } from "../../src/webhooks/index.ts";
import { inboxBehaviour } from "./inbox-behaviour.ts";
import { inboxStoreConformance } from "./inbox-conformance.ts";

let server: TestPostgres;
let pool: pg.Pool;
let n = 0;
beforeAll(async () => {
  server = await startTestPostgres();
  pool = new pg.Pool({ connectionString: server.url, max: 10 });
}, 120_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** A fresh table per test, on one server. */
const open = async (): Promise<InboxStore> => postgresInboxStore(pool, { table: `inbox_${n++}` });

inboxStoreConformance("PostgreSQL", open);
inboxBehaviour("PostgreSQL", open);
