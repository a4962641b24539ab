import type { SchemaElement } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { type BiColumn, builtInColumns } from "./csdl.ts";
import { pickColumns } from "./dataset-columns.ts";
import type { BiEntitySet } from "./metadata.ts";

/**
 * Parquet encoding of BI rows with typed columns from the feed's `$metadata` (see `csdl.ts`; the SDK's built-in
 * copy when none is given): `Edm.String`/`Edm.Guid` → UTF8 strings, `Edm.Int32` → INT32, `Edm.Int64` → INT64,
 * `Edm.Double` → DOUBLE, `Edm.Decimal(p ≤ 18, s)` → DECIMAL(p, s) on INT64 (other decimals → DOUBLE),
 * `Edm.Boolean` → BOOLEAN, `Edm.Date` → DATE, `Edm.DateTimeOffset` → TIMESTAMP(MILLIS, UTC), anything else → UTF8
 * text. Nullable properties are OPTIONAL columns, the others REQUIRED.
 *
 * The writer is hyparquet-writer (pure JavaScript, no native code, runs wherever the SDK runs). Rows are buffered
 * for one row group only, and a row group ends at `rowGroupSize` rows or at about `rowGroupBytes` of buffered
 * values, whichever comes first, so memory is bounded however wide or long the rows are. Every finished row group
 * leaves as bytes.
 */

const STRING: Omit<SchemaElement, "name" | "repetition_type"> = {
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  logical_type: { type: "STRING" },
};

/** The leaf element of one column. */
function leaf(column: BiColumn): SchemaElement {
  const { name, kind } = column;
  const repetition_type = column.nullable ? "OPTIONAL" : "REQUIRED";
  switch (kind) {
    case "int":
      return { name, type: "INT32", repetition_type };
    case "int64":
      return { name, type: "INT64", repetition_type };
    case "double":
      return { name, type: "DOUBLE", repetition_type };
    case "decimal": {
      const { precision = 18, scale = 2 } = column;
      if (precision > 18) return { name, type: "DOUBLE", repetition_type };
      return {
        name,
        type: "INT64",
        converted_type: "DECIMAL",
        logical_type: { type: "DECIMAL", precision, scale },
        precision,
        scale,
        repetition_type,
      };
    }
    case "boolean":
      return { name, type: "BOOLEAN", repetition_type };
    case "date":
      return { name, type: "INT32", converted_type: "DATE", logical_type: { type: "DATE" }, repetition_type };
    case "datetime":
      return {
        name,
        type: "INT64",
        converted_type: "TIMESTAMP_MILLIS",
        logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
        repetition_type,
      };
    default:
      return { name, ...STRING, repetition_type };
  }
}

/** The Parquet schema (root + one leaf per column). */
export function parquetSchema(columns: readonly BiColumn[]): SchemaElement[] {
  return [{ name: "root", num_children: columns.length }, ...columns.map(leaf)];
}

const DAY_MS = 86_400_000;

/**
 * Converts one JSON value of the feed to what the column writer takes: instants as epoch milliseconds and dates as
 * epoch days (plain numbers, no Date object per value), 64-bit integers as BigInt (JSON numbers, or strings where
 * the feed follows IEEE754Compatible=true). A text that is no date or instant is refused, naming the column.
 */
function converter(column: BiColumn): (value: unknown) => unknown {
  const time = (v: string, ms: number) => {
    if (Number.isNaN(ms))
      throw new TypeError(
        `${column.name}: ${JSON.stringify(v)} is no valid ${column.kind === "date" ? "Edm.Date" : "Edm.DateTimeOffset"}`,
      );
    return ms;
  };
  switch (column.kind) {
    case "datetime":
      return (v) => (typeof v === "string" ? time(v, Date.parse(v)) : (v ?? null));
    case "date":
      return (v) => (typeof v === "string" ? time(v, Date.parse(`${v}T00:00:00Z`)) / DAY_MS : (v ?? null));
    case "int64":
      return (v) => (typeof v === "number" || typeof v === "string" ? BigInt(v) : (v ?? null));
    case "other":
      return (v) => (v == null ? null : typeof v === "string" ? v : JSON.stringify(v));
    default:
      return (v) => (v === undefined ? null : v);
  }
}

/** About what a value costs while buffered: a string's characters plus a reference, 8 bytes for the rest. */
const sizeOf = (value: unknown): number => (typeof value === "string" ? 16 + value.length : 8);

export const DEFAULT_ROW_GROUP_SIZE = 50_000;
export const DEFAULT_ROW_GROUP_BYTES = 4 * 1024 * 1024;

export interface ParquetEncoderOptions {
  /** Most rows per row group (default 50 000). */
  rowGroupSize?: number;
  /**
   * Most buffered bytes per row group, estimated from the values (default 4 MiB, about 7 000 rows of Tickets):
   * the bound on memory, also for wide rows. A row group ends at whichever limit comes first. Larger groups
   * compress a little better and cost memory: encoding a group allocates several times its size at once, and a
   * JavaScript heap keeps what such bursts grew it to.
   */
  rowGroupBytes?: number;
  /** Key-value metadata written into the footer (e.g. the feed and watermark of the export). */
  metadata?: Record<string, string>;
  /**
   * Every column of the dataset, in order, as the feed's `$metadata` describes them (`feed.schema()`); default:
   * the SDK's built-in copy.
   */
  schema?: readonly BiColumn[];
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer`);
  return value;
}

/**
 * An incremental Parquet file: `push()` rows, take the finished bytes with `take()` whenever you like, `finish()`
 * at the end (its bytes include the footer). One file, however many rows.
 */
export class ParquetEncoder {
  readonly columns: readonly string[];
  readonly #parquet: ParquetWriter;
  readonly #convert: ((value: unknown) => unknown)[];
  readonly #rowGroupSize: number;
  readonly #rowGroupBytes: number;
  #buffer: unknown[][];
  #buffered = 0;
  #bufferedBytes = 0;
  #chunks: Uint8Array[] = [];
  #finished = false;

  constructor(set: BiEntitySet, columns: readonly string[] | undefined, options: ParquetEncoderOptions = {}) {
    this.#rowGroupSize = positive("rowGroupSize", options.rowGroupSize, DEFAULT_ROW_GROUP_SIZE);
    this.#rowGroupBytes = positive("rowGroupBytes", options.rowGroupBytes, DEFAULT_ROW_GROUP_BYTES);
    const picked = pickColumns(set, options.schema ?? builtInColumns(set), columns);
    this.columns = picked.map((c) => c.name);
    this.#convert = picked.map(converter);
    this.#buffer = picked.map(() => []);
    const writer: ByteWriter & { flush?: () => void } = new ByteWriter();
    // Hand every flushed row group out as bytes and start the buffer over (`offset` keeps the file position).
    writer.flush = () => {
      this.#chunks.push(writer.getBytes().slice());
      writer.index = 0;
    };
    writer.finish = writer.flush;
    this.#parquet = new ParquetWriter({
      writer,
      schema: parquetSchema(picked),
      createdBy: "@entrada/sdk (hyparquet-writer)",
      ...(options.metadata
        ? { kvMetadata: Object.entries(options.metadata).map(([key, value]) => ({ key, value })) }
        : {}),
    });
  }

  /** Adds rows; a full row group (by rows or by bytes) is encoded at once. */
  push(rows: readonly Record<string, unknown>[]): void {
    if (this.#finished) throw new Error("ParquetEncoder: push() after finish()");
    const { columns } = this;
    for (const row of rows) {
      let bytes = 0;
      for (let c = 0; c < columns.length; c++) {
        const value = row[columns[c] as string];
        bytes += sizeOf(value);
        (this.#buffer[c] as unknown[]).push((this.#convert[c] as (v: unknown) => unknown)(value));
      }
      this.#bufferedBytes += bytes;
      if (++this.#buffered >= this.#rowGroupSize || this.#bufferedBytes >= this.#rowGroupBytes)
        this.#flushGroup();
    }
  }

  #flushGroup(): void {
    if (!this.#buffered) return;
    const columnData = this.columns.map((name, c) => ({ name, data: this.#buffer[c] as unknown[] }));
    // Synchronous: the writer's flush() returns nothing, so no promise is involved.
    void this.#parquet.write({ columnData: columnData as never, rowGroupSize: this.#buffered });
    this.#buffer = this.columns.map(() => []);
    this.#buffered = 0;
    this.#bufferedBytes = 0;
  }

  /** The bytes encoded so far that were not taken yet (empty until a row group is complete). */
  take(): Uint8Array<ArrayBuffer> {
    const chunks = this.#chunks;
    this.#chunks = [];
    if (chunks.length === 1) return chunks[0] as Uint8Array<ArrayBuffer>;
    const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }

  /** Encodes the last row group and the footer; returns every byte not taken yet. */
  finish(): Uint8Array<ArrayBuffer> {
    if (!this.#finished) {
      this.#flushGroup();
      this.#finished = true;
      void this.#parquet.finish();
    }
    return this.take();
  }
}
