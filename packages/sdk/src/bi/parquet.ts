import type { SchemaElement } from "hyparquet";
import { ByteWriter, ParquetWriter } from "hyparquet-writer";
import { type BiEntitySet, biEntitySets, propertyKind } from "./metadata.ts";

/**
 * Parquet encoding of BI rows with typed columns from the feed's `$metadata` (mirrored by `biEntitySets`, which a
 * test checks against the contract): `Edm.String`/`Edm.Guid` → UTF8 strings, `Edm.Int32` → INT32, `Edm.Decimal`
 * (18, 2) → DECIMAL(18, 2) on INT64, `Edm.Boolean` → BOOLEAN, `Edm.Date` → DATE, `Edm.DateTimeOffset` →
 * TIMESTAMP(MILLIS, UTC). Nullable properties are OPTIONAL columns, the others REQUIRED.
 *
 * The writer is hyparquet-writer (pure JavaScript, no native code, runs wherever the SDK runs); rows are buffered
 * per row group only, and every finished row group leaves as bytes, so memory stays at one row group.
 */

/** The Parquet schema (root + one leaf per column) for `columns` of `set`. */
export function parquetSchema(set: BiEntitySet, columns: readonly string[]): SchemaElement[] {
  const leaves = columns.map((name): SchemaElement => {
    const { kind, nullable } = propertyKind(set, name);
    const repetition_type = nullable ? "OPTIONAL" : "REQUIRED";
    switch (kind) {
      case "int":
        return { name, type: "INT32", repetition_type };
      case "decimal":
        return {
          name,
          type: "INT64",
          converted_type: "DECIMAL",
          logical_type: { type: "DECIMAL", precision: 18, scale: 2 },
          precision: 18,
          scale: 2,
          repetition_type,
        };
      case "boolean":
        return { name, type: "BOOLEAN", repetition_type };
      case "date":
        return {
          name,
          type: "INT32",
          converted_type: "DATE",
          logical_type: { type: "DATE" },
          repetition_type,
        };
      case "datetime":
        return {
          name,
          type: "INT64",
          converted_type: "TIMESTAMP_MILLIS",
          logical_type: { type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" },
          repetition_type,
        };
      default:
        return {
          name,
          type: "BYTE_ARRAY",
          converted_type: "UTF8",
          logical_type: { type: "STRING" },
          repetition_type,
        };
    }
  });
  return [{ name: "root", num_children: leaves.length }, ...leaves];
}

/** Converts one JSON value of the feed to what the column writer takes (Date for instants, Date for dates). */
function converter(set: BiEntitySet, name: string): (value: unknown) => unknown {
  const { kind } = propertyKind(set, name);
  if (kind === "datetime" || kind === "date")
    return (v) => (typeof v === "string" ? new Date(kind === "date" ? `${v}T00:00:00Z` : v) : (v ?? null));
  return (v) => (v === undefined ? null : v);
}

export interface ParquetEncoderOptions {
  /** Rows per row group (default 50 000): the unit of buffering, and what readers skip by statistics. */
  rowGroupSize?: number;
  /** Key-value metadata written into the footer (e.g. the feed and watermark of the export). */
  metadata?: Record<string, string>;
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
  #buffer: unknown[][];
  #buffered = 0;
  #chunks: Uint8Array[] = [];
  #finished = false;

  constructor(set: BiEntitySet, columns: readonly string[] | undefined, options: ParquetEncoderOptions = {}) {
    this.columns = columns ?? Object.keys(biEntitySets[set]);
    const size = options.rowGroupSize ?? 50_000;
    if (!Number.isSafeInteger(size) || size < 1)
      throw new TypeError("rowGroupSize must be a positive integer");
    this.#rowGroupSize = size;
    this.#convert = this.columns.map((name) => converter(set, name));
    this.#buffer = this.columns.map(() => []);
    const writer: ByteWriter & { flush?: () => void } = new ByteWriter();
    // Hand every flushed row group out as bytes and start the buffer over (`offset` keeps the file position).
    writer.flush = () => {
      this.#chunks.push(writer.getBytes().slice());
      writer.index = 0;
    };
    writer.finish = writer.flush;
    this.#parquet = new ParquetWriter({
      writer,
      schema: parquetSchema(set, this.columns),
      createdBy: "@entrada/sdk (hyparquet-writer)",
      ...(options.metadata
        ? { kvMetadata: Object.entries(options.metadata).map(([key, value]) => ({ key, value })) }
        : {}),
    });
  }

  /** Adds rows; a full row group is encoded at once. */
  push(rows: readonly Record<string, unknown>[]): void {
    if (this.#finished) throw new Error("ParquetEncoder: push() after finish()");
    for (const row of rows) {
      for (let c = 0; c < this.columns.length; c++) {
        (this.#buffer[c] as unknown[]).push(
          (this.#convert[c] as (v: unknown) => unknown)(row[this.columns[c] as string]),
        );
      }
      if (++this.#buffered >= this.#rowGroupSize) this.#flushGroup();
    }
  }

  #flushGroup(): void {
    if (!this.#buffered) return;
    const columnData = this.columns.map((name, c) => ({ name, data: this.#buffer[c] as unknown[] }));
    // Synchronous: the writer's flush() returns nothing, so no promise is involved.
    void this.#parquet.write({ columnData: columnData as never, rowGroupSize: this.#buffered });
    this.#buffer = this.columns.map(() => []);
    this.#buffered = 0;
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
