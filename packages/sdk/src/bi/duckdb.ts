import { type BiColumn, pickColumns } from "./csdl.ts";
import { datasetColumns } from "./dataset-columns.ts";
import type { BiFeed } from "./feed.ts";
import {
  type BiIncrementalState,
  BiStateError,
  type BiWatermark,
  biKeys,
  CHANGE_STAMP,
  incrementalQuery,
  newIncrementalState,
  readIncrementalState,
  WatermarkTracker,
} from "./incremental.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import type { ODataQuery } from "./query.ts";
import type { BiRequestOptions } from "./types.ts";

/**
 * Loads a BI dataset into a local DuckDB file — the embedded warehouse for people without one — with upsert by key
 * and the watermark kept in the same file. Each page is one transaction (rows upserted + watermark moved), so a
 * load stopped at any point resumes after the last committed page: nothing is lost or loaded twice.
 *
 * Needs the optional peer dependency `@duckdb/node-api` (Node only; its native binary comes as an npm package).
 */

/** The parts of `@duckdb/node-api` used here (loaded on demand, so plain SDK users never install it). */
interface DuckAppender {
  appendVarchar(value: string): void;
  appendNull(): void;
  endRow(): void;
  flushSync(): void;
  closeSync(): void;
}
interface DuckConnection {
  run(sql: string, values?: unknown[]): Promise<unknown>;
  runAndReadAll(sql: string, values?: unknown[]): Promise<{ getRowObjectsJson(): Record<string, unknown>[] }>;
  createAppender(table: string): Promise<DuckAppender>;
  closeSync(): void;
}
interface DuckInstance {
  connect(): Promise<DuckConnection>;
  closeSync(): void;
}
interface DuckModule {
  DuckDBInstance: { create(path: string): Promise<DuckInstance> };
}

const STATE_TABLE = "_entrada_bi_state";

async function loadDuckDb(): Promise<DuckModule> {
  // A variable specifier: bundlers leave it alone, and the SDK compiles without DuckDB's (Node-only) types.
  const specifier = "@duckdb/node-api";
  try {
    return (await import(/* @vite-ignore */ specifier)) as DuckModule;
  } catch (cause) {
    throw new Error(
      "Loading into DuckDB needs the optional package @duckdb/node-api: npm install @duckdb/node-api",
      {
        cause,
      },
    );
  }
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** DuckDB column types from the feed's `$metadata` (see `csdl.ts`). */
function sqlType(column: BiColumn): string {
  switch (column.kind) {
    case "int":
      return "INTEGER";
    case "int64":
      return "BIGINT";
    case "double":
      return "DOUBLE";
    case "decimal": {
      const { precision = 18, scale = 2 } = column;
      return precision <= 38 ? `DECIMAL(${precision},${scale})` : "DOUBLE";
    }
    case "boolean":
      return "BOOLEAN";
    case "date":
      return "DATE";
    case "datetime":
      return "TIMESTAMPTZ";
    default:
      return "VARCHAR";
  }
}

export interface DuckDbLoadOptions extends BiRequestOptions {
  /** The DuckDB file (created if missing). */
  database: string;
  /** Target table (default: the dataset's name, e.g. `Tickets`). */
  table?: string;
  /** Ignore the stored watermark and load every row again (still upserts: no duplicates). */
  full?: boolean;
  /**
   * Called when the table's columns follow the SDK's built-in copy because the feed's `$metadata` could not be
   * read. Default: `console.warn`.
   */
  onWarning?: (message: string) => void;
  /** Called after every committed page. */
  onProgress?: (progress: { rows: number; pages: number; total: number | undefined }) => void;
}

export interface DuckDbLoadResult {
  table: string;
  /** Rows upserted by this run. */
  rows: number;
  pages: number;
  /** Rows in the table afterwards. */
  tableRows: number;
  watermark: BiWatermark | null;
}

/**
 * Loads the rows changed since the last load (all rows the first time) into `table` of a DuckDB file, upserting by
 * the dataset's key. The query's `$filter` is kept with the watermark; a different feed or filter is refused.
 * @example
 * await loadIntoDuckDb(bi, odata("Tickets"), { database: "entrada.duckdb" });
 * // duckdb entrada.duckdb "SELECT EventName, count(*) FROM Tickets GROUP BY 1"
 */
export async function loadIntoDuckDb<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  options: DuckDbLoadOptions,
): Promise<DuckDbLoadResult> {
  const set = query.entitySet;
  const key = biKeys[set];
  const table = options.table ?? set;
  // The table's columns and types from the feed's $metadata (the built-in copy only when it cannot be read).
  const all = await datasetColumns(feed, set, options);
  const picked = pickColumns(
    set,
    all,
    query.selected ? [...new Set<string>([...query.selected, key, CHANGE_STAMP])] : undefined,
  );
  const columns = picked.map((c) => c.name);
  const filter = query.params().$filter ?? null;
  const { DuckDBInstance } = await loadDuckDb();
  const instance = await DuckDBInstance.create(options.database);
  const db = await instance.connect();
  const stage = `_entrada_bi_stage_${table}`;
  try {
    await db.run(
      `CREATE TABLE IF NOT EXISTS ${STATE_TABLE} ("table" VARCHAR PRIMARY KEY, state VARCHAR NOT NULL)`,
    );
    await db.run(
      `CREATE TABLE IF NOT EXISTS ${ident(table)} (${picked
        .map((c) => `${ident(c.name)} ${sqlType(c)}${c.nullable ? "" : " NOT NULL"}`)
        .join(", ")}, PRIMARY KEY (${ident(key)}))`,
    );
    const existing = await db.runAndReadAll(
      `SELECT column_name FROM information_schema.columns WHERE table_name = ?`,
      [table],
    );
    const have = new Set(existing.getRowObjectsJson().map((r) => String(r.column_name)));
    const missing = columns.filter((c) => !have.has(c));
    if (missing.length)
      throw new BiStateError(
        "foreign_dataset",
        `Table ${table} in ${options.database} has no column ${missing.join(", ")}: it holds another dataset or selection`,
      );
    await db.run(
      `CREATE OR REPLACE TEMP TABLE ${ident(stage)} (${columns.map((c) => `${ident(c)} VARCHAR`).join(", ")})`,
    );

    const saved = await db.runAndReadAll(`SELECT state FROM ${STATE_TABLE} WHERE "table" = ?`, [table]);
    const text = saved.getRowObjectsJson()[0]?.state;
    const identity = { feed, dataset: set, filter };
    let state: BiIncrementalState = readIncrementalState(
      typeof text === "string" ? text : undefined,
      identity,
    );
    if (options.full) state = { ...newIncrementalState(identity), rows: state.rows, runs: state.runs };

    const tracker = new WatermarkTracker(set, state.watermark);
    const casts = picked.map((c) => `CAST(${ident(c.name)} AS ${sqlType(c)})`).join(", ");
    let rows = 0;
    let pages = 0;
    for await (const page of feed.pages(incrementalQuery(query, state.watermark), options)) {
      const values = page.value as Record<string, unknown>[];
      tracker.observe(values);
      const appender = await db.createAppender(stage);
      for (const row of values) {
        for (const c of columns) {
          const v = row[c];
          if (v === null || v === undefined) appender.appendNull();
          else appender.appendVarchar(typeof v === "object" ? JSON.stringify(v) : String(v));
        }
        appender.endRow();
      }
      appender.flushSync();
      appender.closeSync();
      rows += values.length;
      pages++;
      state = {
        ...state,
        watermark: tracker.watermark,
        rows: state.rows + values.length,
        updatedAt: new Date().toISOString(),
      };
      // One transaction per page: the rows and the watermark that covers them commit together.
      await db.run("BEGIN TRANSACTION");
      try {
        await db.run(
          `INSERT OR REPLACE INTO ${ident(table)} (${columns.map(ident).join(", ")}) SELECT ${casts} FROM ${ident(stage)}`,
        );
        await db.run(`INSERT OR REPLACE INTO ${STATE_TABLE} VALUES (?, ?)`, [table, JSON.stringify(state)]);
        await db.run("COMMIT");
      } catch (e) {
        await db.run("ROLLBACK");
        throw e;
      }
      await db.run(`DELETE FROM ${ident(stage)}`);
      options.onProgress?.({ rows, pages, total: page.count });
    }
    state = { ...state, runs: state.runs + 1, updatedAt: new Date().toISOString() };
    await db.run(`INSERT OR REPLACE INTO ${STATE_TABLE} VALUES (?, ?)`, [table, JSON.stringify(state)]);
    const count = await db.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${ident(table)}`);
    return {
      table,
      rows,
      pages,
      tableRows: Number(count.getRowObjectsJson()[0]?.n ?? 0),
      watermark: state.watermark,
    };
  } finally {
    db.closeSync();
    instance.closeSync();
  }
}
