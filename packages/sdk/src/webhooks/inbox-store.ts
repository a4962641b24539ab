/**
 * The contract between the webhook inbox and the table it keeps deliveries in. `sqliteInboxStore`
 * (`@entrada/sdk/sqlite`) and `postgresInboxStore` (`@entrada/sdk/postgres`) implement it; one conformance suite
 * (`test/stores/inbox-conformance.ts`) holds any implementation to it.
 *
 * Every row is one delivery, unique on its `webhook-id`. `dueAt` is the one instant the claim query looks at: for a
 * pending row when it may be tried (now, or after its backoff), for a running row when its lease expires (then
 * another worker may take it over), and null for done and dead rows.
 */

export type InboxStatus = "pending" | "running" | "done" | "dead";

/** A delivery as the inbox keeps it. Times are epoch milliseconds. */
export interface InboxRecord {
  /** The delivery's `webhook-id` (Standard Webhooks keeps it across redeliveries). */
  id: string;
  /** The event's `type`, kept beside the body for queries and stats. */
  type: string;
  /** The body exactly as received and verified (UTF-8 JSON). */
  body: string;
  receivedAt: number;
  status: InboxStatus;
  /** Attempts started so far (a claim counts one). */
  attempts: number;
  /** Why the last attempt failed, if it did. */
  lastError: string | null;
  /** See the file comment; null for done and dead rows. */
  dueAt: number | null;
}

export interface InboxClaim {
  now: number;
  limit: number;
  /** Names this worker; only its owner may complete or fail a claimed row. */
  owner: string;
  /** End of the lease: past it, another worker may claim the row again. */
  leaseUntil: number;
}

export interface InboxCounts {
  /** Waiting to be tried, including rows whose lease expired (their worker stopped). */
  pending: number;
  /** Claimed under a lease that has not expired. */
  inFlight: number;
  /** Dead letters: attempts exhausted; `replay(id)` tries one again. */
  dead: number;
  /** Processed and kept until the retention ends (a late redelivery is then still recognised). */
  done: number;
  /** `receivedAt` of the oldest pending row, or null. */
  oldestPendingAt: number | null;
}

export interface InboxStore {
  /** Short name for log lines (`sqlite:/var/lib/app/inbox.sqlite`, `postgres`). */
  readonly name: string;
  /**
   * Stores a new delivery as pending and due now; resolves only once the write is committed (durable). Resolves
   * `false` when the id is already stored (a redelivery: nothing changes). Rejects when it cannot write.
   */
  add(row: { id: string; type: string; body: string; receivedAt: number }): Promise<boolean>;
  /**
   * Atomically takes up to `limit` due rows (oldest `dueAt` first) under a lease: status `running`, `owner`, one
   * more attempt, `dueAt = leaseUntil`. Two concurrent claims never return the same row.
   */
  claim(claim: InboxClaim): Promise<InboxRecord[]>;
  /** Marks the row done, if `owner` still holds its lease; `false` if it lost it (another worker took over). */
  complete(id: string, owner: string, now: number): Promise<boolean>;
  /** Records a failed attempt: pending again at `retryAt`, or dead when it is null; only while `owner` holds it. */
  fail(id: string, owner: string, error: string, retryAt: number | null, now: number): Promise<boolean>;
  /** Makes a dead or done row pending and due at `now`, its attempts counted from zero again. */
  replay(id: string, now: number): Promise<boolean>;
  get(id: string): Promise<InboxRecord | undefined>;
  counts(now: number): Promise<InboxCounts>;
  /** Deletes up to `limit` done rows finished before `doneBefore` and dead rows that died before `deadBefore`. */
  prune(doneBefore: number, deadBefore: number, limit: number): Promise<number>;
  /** Releases what the store opened itself (a pool passed in stays open). */
  close?(): Promise<void>;
}

/** A table name that is safe to put into SQL as it is. */
export function tableName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name))
    throw new TypeError(`Table name "${name}" must be letters, digits and underscores (at most 63)`);
  return name;
}

/** A row of the inbox table (SQLite or PostgreSQL, snake_case columns; PostgreSQL's bigints come as text). */
export const inboxRecord = (row: Record<string, unknown>): InboxRecord => ({
  id: String(row.id),
  type: String(row.type),
  body: String(row.body),
  receivedAt: Number(row.received_at),
  status: row.status as InboxStatus,
  attempts: Number(row.attempts),
  lastError: row.last_error === null || row.last_error === undefined ? null : String(row.last_error),
  dueAt: row.due_at === null || row.due_at === undefined ? null : Number(row.due_at),
});

/** The inbox counts from one row of `pending, in_flight, dead, done, oldest`. */
export const inboxCounts = (row: Record<string, unknown>): InboxCounts => ({
  pending: Number(row.pending ?? 0),
  inFlight: Number(row.in_flight ?? 0),
  dead: Number(row.dead ?? 0),
  done: Number(row.done ?? 0),
  oldestPendingAt: row.oldest === null || row.oldest === undefined ? null : Number(row.oldest),
});

/** Longest error text kept with a row. */
export const MAX_ERROR_LENGTH = 2000;
