/**
 * One cold process of the token-store test: a client sharing its token through the store named on the command
 * line, asking for a token and making one call. Run with `node --conditions=source`.
 */
import pg from "pg";
import { createClient } from "../../src/index.ts";
import { postgresTokenStore } from "../../src/stores/postgres.ts";
import { sqliteTokenStore } from "../../src/stores/sqlite.ts";

const [kind, where, baseUrl] = process.argv.slice(2) as [string, string, string];
const pool = kind === "postgres" ? new pg.Pool({ connectionString: where, max: 2 }) : undefined;
const tokenStore = pool ? postgresTokenStore(pool) : sqliteTokenStore(where);
const client = createClient({ baseUrl, clientId: "client_demo", clientSecret: "s3cret", tokenStore });
process.stdout.write("asking\n");
const response = await client.fetch(`${baseUrl}/probe`);
process.stdout.write(`${JSON.stringify({ status: response.status, token: await response.text() })}\n`);
await pool?.end();
