import type { FileMetaData, RowGroup, SchemaElement } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import { writeMetadata } from "hyparquet-writer/src/metadata.js";
import { type BiColumn, builtInColumns, pickColumns } from "./csdl.ts";
import type { BiEntitySet } from "./metadata.ts";
import { chunkScratch, writeChunk } from "./parquet-chunks.ts";
import { type ColumnBuffer, columnBuffer } from "./parquet-columns.ts";

/**
 * Parquet encoding of BI rows with typed columns from the feed's `$metadata` (see `csdl.ts`; the SDK's built-in
 * copy when none is given): `Edm.String`/`Edm.Guid` → UTF8 strings, `Edm.Int32` → INT32, `Edm.Int64` → INT64,
 * `Edm.Double` → DOUBLE, `Edm.Decimal(p ≤ 18, s)` → DECIMAL(p, s) on INT64 (other decimals → DOUBLE),
 * `Edm.Boolean` → BOOLEAN, `Edm.Date` → DATE, `Edm.DateTimeOffset` → TIMESTAMP(MILLIS, UTC), anything else → UTF8
 * text. Nullable properties are OPTIONAL columns, the others REQUIRED.
 *
 * Pure JavaScript, no native code, runs wherever the SDK runs. Rows are buffered for one row group only, in typed
 * arrays and UTF-8 bytes (`parquet-columns.ts`), and a row group ends at `rowGroupSize` rows or at `rowGroupBytes`
 * of buffered values, whichever comes first, so memory is bounded however wide or long the rows are. Each column
 * chunk is encoded from those buffers (`parquet-chunks.ts`); page headers, Snappy and the footer are
 * hyparquet-writer's. Every finished row group leaves as bytes.
 */

/** "PAR1", the magic at the start and the end of a Parquet file. */
const PAR1 = 0x31524150;

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

export const DEFAULT_ROW_GROUP_SIZE = 50_000;
export const DEFAULT_ROW_GROUP_BYTES = 4 * 1024 * 1024;

export interface ParquetEncoderOptions {
  /** Most rows per row group (default 50 000). */
  rowGroupSize?: number;
  /**
   * Most buffered bytes per row group: UTF-8 bytes of text, 8 per number (default 4 MiB, about 15 000 rows of
   * Tickets): the bound on memory, also for wide rows. A row group ends at whichever limit comes first. Larger
   * groups compress a little better and cost memory (the buffers, and a group's encoded bytes, grow to fit it).
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
  /** Everything the footer needs but the row groups. */
  readonly #file: Omit<FileMetaData, "row_groups" | "num_rows" | "metadata_length">;
  readonly #rowGroups: RowGroup[] = [];
  #rows = 0n;
  readonly #writer: ByteWriter & { flush?: () => void };
  readonly #elements: SchemaElement[];
  readonly #scratch = chunkScratch();
  readonly #buffers: ColumnBuffer[];
  readonly #rowGroupSize: number;
  readonly #rowGroupBytes: number;
  #buffered = 0;
  #bufferedBytes = 0;
  #chunks: Uint8Array[] = [];
  #finished = false;

  constructor(set: BiEntitySet, columns: readonly string[] | undefined, options: ParquetEncoderOptions = {}) {
    this.#rowGroupSize = positive("rowGroupSize", options.rowGroupSize, DEFAULT_ROW_GROUP_SIZE);
    this.#rowGroupBytes = positive("rowGroupBytes", options.rowGroupBytes, DEFAULT_ROW_GROUP_BYTES);
    const picked = pickColumns(set, options.schema ?? builtInColumns(set), columns);
    this.columns = picked.map((c) => c.name);
    this.#buffers = picked.map(columnBuffer);
    const writer: ByteWriter & { flush?: () => void } = new ByteWriter();
    // Hand every flushed row group out as bytes and start the buffer over (`offset` keeps the file position).
    writer.flush = () => {
      this.#chunks.push(writer.getBytes().slice());
      writer.index = 0;
    };
    this.#writer = writer;
    const schema = parquetSchema(picked);
    this.#elements = schema.slice(1);
    this.#file = {
      version: 2,
      created_by: "@entrada/sdk (hyparquet-writer)",
      schema,
      ...(options.metadata
        ? { key_value_metadata: Object.entries(options.metadata).map(([key, value]) => ({ key, value })) }
        : {}),
    };
    writer.appendUint32(PAR1);
  }

  /** Adds rows; a full row group (by rows or by bytes) is encoded at once. */
  push(rows: readonly Record<string, unknown>[]): void {
    if (this.#finished) throw new Error("ParquetEncoder: push() after finish()");
    const { columns } = this;
    const buffers = this.#buffers;
    for (const row of rows) {
      let bytes = 0;
      for (let c = 0; c < columns.length; c++)
        bytes += (buffers[c] as ColumnBuffer).push(row[columns[c] as string]);
      this.#bufferedBytes += bytes;
      if (++this.#buffered >= this.#rowGroupSize || this.#bufferedBytes >= this.#rowGroupBytes)
        this.#flushGroup();
    }
  }

  #flushGroup(): void {
    const rows = this.#buffered;
    if (!rows) return;
    // Each column chunk is encoded from its typed buffer; the writer keeps the row group for the footer.
    const writer = this.#writer;
    const groupStart = writer.offset;
    const chunks = this.#buffers.map((buffer, c) =>
      writeChunk(writer, this.#elements[c] as SchemaElement, buffer, this.#scratch),
    );
    let total = 0n;
    for (const chunk of chunks) total += chunk.meta_data?.total_uncompressed_size ?? 0n;
    this.#rowGroups.push({
      columns: chunks,
      total_byte_size: total,
      num_rows: BigInt(rows),
      total_compressed_size: BigInt(writer.offset - groupStart),
    });
    this.#rows += BigInt(rows);
    writer.flush?.();
    for (const buffer of this.#buffers) buffer.reset();
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
      const footer = { ...this.#file, num_rows: this.#rows, row_groups: this.#rowGroups };
      writeMetadata(this.#writer, footer as FileMetaData);
      this.#writer.appendUint32(PAR1);
      this.#writer.flush?.();
    }
    return this.take();
  }
}
