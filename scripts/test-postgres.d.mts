// Declarations of scripts/test-postgres.mjs.
export interface TestPostgres {
  /** A connection string for the test's own database. */
  url: string;
  stop(): Promise<void>;
  /** Only for a server the harness started itself: stop at once, start again on the same port and data. */
  restart?(): Promise<void>;
}
/** The directory of Debian's (or PG_BIN's) initdb and pg_ctl; undefined when PostgreSQL is not installed. */
export function postgresBin(): string | undefined;
export function startTestPostgres(options?: { durable?: boolean }): Promise<TestPostgres>;
