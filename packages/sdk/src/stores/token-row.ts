import type { StoredToken } from "../core/token-cache.ts";

/** A row of the token table (SQLite or PostgreSQL; PostgreSQL's bigints come as text). */
export const storedToken = (row: Record<string, unknown>): StoredToken => ({
  accessToken: String(row.access_token),
  expiresAt: Number(row.expires_at),
  refreshAt: row.refresh_at === null || row.refresh_at === undefined ? undefined : Number(row.refresh_at),
  scope: row.scope === null || row.scope === undefined ? undefined : String(row.scope),
});
