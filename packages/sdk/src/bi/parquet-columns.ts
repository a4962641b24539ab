import type { SchemaElement } from "hyparquet";
import { ByteWriter } from "hyparquet-writer";
import type { BiColumn } from "./csdl.ts";

/**
 * The values of one column of the row group being filled, kept in typed arrays (numbers, flags) and in one UTF-8
 * byte buffer per text column — not as JavaScript values: a row group lives for thousands of rows, and values held
 * that long as objects would grow the garbage collector's work for the whole export. They are encoded from these
 * bytes (`parquet-chunks.ts`), and the buffers are reused by the next row group.
 */
export interface ColumnBuffer {
  /** Values buffered (nulls included). */
  readonly count: number;
  /** 1 where the value is null. */
  readonly nulls: Uint8Array;
  /** Appends one JSON value of the feed; returns about what it costs buffered (bytes). */
  push(value: unknown): number;
  /** Writes the non-null values PLAIN-encoded as `element`'s physical type. */
  plain(out: ByteWriter, element: SchemaElement): void;
  /**
   * Text only: the distinct values PLAIN-encoded and each non-null value's index among them, when there are few
   * enough distinct values for a dictionary to pay (else undefined: the column is written PLAIN).
   */
  dictionary?(): { values: ByteWriter; size: number; indexes: Int32Array } | undefined;
  /**
   * The smallest and largest non-null value (for the chunk's statistics, which readers use to skip row groups):
   * numbers and bigints as stored, text as UTF-8 bytes in unsigned byte order; undefined when all are null.
   */
  range(): { min: unknown; max: unknown } | undefined;
  /** Empties the buffer for the next row group, keeping its memory. */
  reset(): void;
}

const DAY_MS = 86_400_000;
/** Most distinct values of a text column's dictionary in one row group; more are written PLAIN. */
const MAX_DICTIONARY = 4096;
const utf8 = /* @__PURE__ */ new TextEncoder();
const text = /* @__PURE__ */ new TextDecoder();

/** Doubles `array` until it holds `size` elements. */
function grow<T extends Uint8Array | Int32Array | Float64Array | BigInt64Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  let length = array.length * 2;
  while (length < size) length *= 2;
  const next = new (array.constructor as new (n: number) => T)(length);
  next.set(array as never);
  return next;
}

/** Null flags beside every kind of column. */
abstract class Nullable implements ColumnBuffer {
  count = 0;
  nulls = new Uint8Array(1024);
  readonly column: BiColumn;
  constructor(column: BiColumn) {
    this.column = column;
  }

  push(value: unknown): number {
    this.nulls = grow(this.nulls, this.count + 1);
    const isNull = value === null || value === undefined;
    this.nulls[this.count] = isNull ? 1 : 0;
    const bytes = isNull ? this.storeNull(this.count) : this.store(value, this.count);
    this.count++;
    return bytes;
  }

  plain(out: ByteWriter, element: SchemaElement): void {
    for (let i = 0; i < this.count; i++) if (!this.nulls[i]) this.write(out, i, element);
  }

  range(): { min: unknown; max: unknown } | undefined {
    let min = -1;
    let max = -1;
    for (let i = 0; i < this.count; i++) {
      if (this.nulls[i]) continue;
      if (min < 0 || this.compare(i, min) < 0) min = i;
      if (max < 0 || this.compare(i, max) > 0) max = i;
    }
    return min < 0 ? undefined : { min: this.value(min), max: this.value(max) };
  }

  /** Orders value `a` against value `b` (negative, 0, positive). */
  protected abstract compare(a: number, b: number): number;
  /** Value `i` as the statistics take it. */
  protected abstract value(i: number): unknown;

  reset(): void {
    this.count = 0;
  }

  protected refuse(value: unknown, what: string): never {
    throw new TypeError(`${this.column.name}: ${JSON.stringify(value)} is no valid ${what}`);
  }

  /** Stores a non-null value at `i`; returns its buffered bytes. */
  protected abstract store(value: unknown, i: number): number;
  /** A null at `i` (flagged already); returns its buffered bytes. */
  protected storeNull(_i: number): number {
    return 1;
  }
  /** Writes value `i` PLAIN. */
  protected abstract write(out: ByteWriter, i: number, element: SchemaElement): void;
}

/** Strings, GUIDs and anything written as text (objects as JSON): UTF-8 bytes and where each value ends. */
class TextColumn extends Nullable {
  #bytes = new Uint8Array(64 * 1024);
  #used = 0;
  #ends = new Int32Array(1024);

  protected store(value: unknown, i: number): number {
    const s = typeof value === "string" ? value : JSON.stringify(value);
    // At most 3 bytes per UTF-16 unit.
    this.#bytes = grow(this.#bytes, this.#used + s.length * 3);
    this.#used += utf8.encodeInto(s, this.#bytes.subarray(this.#used)).written;
    this.#ends = grow(this.#ends, i + 1);
    this.#ends[i] = this.#used;
    return 8 + s.length;
  }

  protected override storeNull(i: number): number {
    // A null takes no bytes: it ends where the value before it ended.
    this.#ends = grow(this.#ends, i + 1);
    this.#ends[i] = this.#used;
    return 1;
  }

  #value(i: number): Uint8Array {
    return this.#bytes.subarray(i ? (this.#ends[i - 1] as number) : 0, this.#ends[i]);
  }

  protected compare(a: number, b: number): number {
    const x = this.#value(a);
    const y = this.#value(b);
    const n = Math.min(x.length, y.length);
    for (let k = 0; k < n; k++) if (x[k] !== y[k]) return (x[k] as number) - (y[k] as number);
    return x.length - y.length;
  }

  protected value(i: number): unknown {
    return this.#value(i).slice();
  }

  protected write(out: ByteWriter, i: number): void {
    const bytes = this.#value(i);
    out.appendUint32(bytes.length);
    out.appendBytes(bytes);
  }

  dictionary() {
    const seen = new Map<string, number>();
    const indexes = new Int32Array(this.count);
    let n = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.nulls[i]) continue;
      const key = text.decode(this.#value(i));
      let index = seen.get(key);
      if (index === undefined) {
        if (seen.size >= MAX_DICTIONARY) return undefined;
        index = seen.size;
        seen.set(key, index);
      }
      indexes[n++] = index;
    }
    const values = new ByteWriter();
    for (const key of seen.keys()) {
      const bytes = utf8.encode(key);
      values.appendUint32(bytes.length);
      values.appendBytes(bytes);
    }
    return { values, size: seen.size, indexes: indexes.subarray(0, n) };
  }

  override reset(): void {
    super.reset();
    this.#used = 0;
  }
}

/** Numbers in a Float64Array: doubles, decimals, instants (epoch ms), dates (epoch days), 32-bit integers. */
class NumberColumn extends Nullable {
  #values = new Float64Array(1024);
  readonly #parse: (value: unknown) => number;

  constructor(column: BiColumn) {
    super(column);
    const kind = column.kind;
    const time = (v: unknown, ms: number, what: string) => (Number.isNaN(ms) ? this.refuse(v, what) : ms);
    this.#parse =
      kind === "datetime"
        ? (v) =>
            typeof v === "string"
              ? time(v, Date.parse(v), "Edm.DateTimeOffset")
              : this.refuse(v, "Edm.DateTimeOffset")
        : kind === "date"
          ? (v) =>
              typeof v === "string"
                ? time(v, Date.parse(`${v}T00:00:00Z`), "Edm.Date") / DAY_MS
                : this.refuse(v, "Edm.Date")
          : (v) => {
              if (typeof v === "number") return v;
              // Decimals may come as strings (IEEE754Compatible=true).
              const n = kind === "decimal" && typeof v === "string" && v.trim() ? Number(v) : Number.NaN;
              return Number.isNaN(n) ? this.refuse(v, "number") : n;
            };
  }

  protected store(value: unknown, i: number): number {
    this.#values = grow(this.#values, i + 1);
    this.#values[i] = this.#parse(value);
    return 8;
  }

  protected compare(a: number, b: number): number {
    return (this.#values[a] as number) - (this.#values[b] as number);
  }

  protected value(i: number): unknown {
    return this.#values[i];
  }

  protected write(out: ByteWriter, i: number, element: SchemaElement): void {
    const v = this.#values[i] as number;
    if (element.type === "INT32") out.appendInt32(v);
    else if (element.type === "DOUBLE") out.appendFloat64(v);
    else
      out.appendInt64(
        BigInt(Math.round(element.converted_type === "DECIMAL" ? v * 10 ** (element.scale ?? 0) : v)),
      );
  }
}

/** 64-bit integers (JSON numbers, or strings with IEEE754Compatible=true) in a BigInt64Array. */
class BigIntColumn extends Nullable {
  #values = new BigInt64Array(1024);

  protected store(value: unknown, i: number): number {
    if (typeof value !== "number" && typeof value !== "string") this.refuse(value, "Edm.Int64");
    let n: bigint;
    try {
      n = BigInt(value);
    } catch {
      this.refuse(value, "Edm.Int64");
    }
    this.#values = grow(this.#values, i + 1);
    this.#values[i] = n;
    return 8;
  }

  protected compare(a: number, b: number): number {
    const x = this.#values[a] as bigint;
    const y = this.#values[b] as bigint;
    return x < y ? -1 : x > y ? 1 : 0;
  }

  protected value(i: number): unknown {
    return this.#values[i];
  }

  protected write(out: ByteWriter, i: number): void {
    out.appendInt64(this.#values[i] as bigint);
  }
}

/** Booleans as bytes. */
class BooleanColumn extends Nullable {
  #values = new Uint8Array(1024);

  protected store(value: unknown, i: number): number {
    if (typeof value !== "boolean") this.refuse(value, "Edm.Boolean");
    this.#values = grow(this.#values, i + 1);
    this.#values[i] = value ? 1 : 0;
    return 1;
  }

  protected compare(a: number, b: number): number {
    return (this.#values[a] as number) - (this.#values[b] as number);
  }

  protected value(i: number): unknown {
    return this.#values[i] === 1;
  }

  protected write(): void {}

  /** PLAIN booleans are bit-packed, least significant bit first. */
  override plain(out: ByteWriter): void {
    let byte = 0;
    let bit = 0;
    for (let i = 0; i < this.count; i++) {
      if (this.nulls[i]) continue;
      byte |= (this.#values[i] as number) << bit;
      if (++bit === 8) {
        out.appendUint8(byte);
        byte = 0;
        bit = 0;
      }
    }
    if (bit) out.appendUint8(byte);
  }
}

/** The buffer for a column of the given `$metadata` kind (see `leaf()` in parquet.ts for the Parquet types). */
export function columnBuffer(column: BiColumn): ColumnBuffer {
  switch (column.kind) {
    case "int64":
      return new BigIntColumn(column);
    case "boolean":
      return new BooleanColumn(column);
    case "int":
    case "double":
    case "decimal":
    case "date":
    case "datetime":
      return new NumberColumn(column);
    default:
      return new TextColumn(column);
  }
}
