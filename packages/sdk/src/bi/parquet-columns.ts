import type { BiColumn } from "./csdl.ts";

/**
 * The values of one column of the row group being filled, kept in typed arrays (numbers, flags) and in one UTF-8
 * byte buffer per text column — not as JavaScript values. A row group lives for thousands of rows: held as strings,
 * Dates or numbers in arrays, its values survive every young-generation collection meanwhile, and V8 answers that
 * survival by growing the young generation for good. Here they are bytes outside the object graph; the writer gets
 * one column's values as an array only while it encodes that column. The buffers are reused by the next row group.
 */
export interface ColumnBuffer {
  /** Appends one JSON value of the feed; returns about what it costs buffered (bytes). */
  push(value: unknown): number;
  /** The buffered values as the Parquet writer takes them (a fresh array: garbage once the column is written). */
  values(): unknown[];
  /** Empties the buffer for the next row group, keeping its memory. */
  reset(): void;
}

const DAY_MS = 86_400_000;
const utf8 = new TextEncoder();
const text = new TextDecoder();

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
  protected count = 0;
  protected nulls = new Uint8Array(1024);
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

  values(): unknown[] {
    const out = new Array<unknown>(this.count);
    for (let i = 0; i < this.count; i++) out[i] = this.nulls[i] ? null : this.load(i);
    return out;
  }

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
  protected abstract load(i: number): unknown;
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

  protected load(i: number): unknown {
    return text.decode(this.#bytes.subarray(i ? (this.#ends[i - 1] as number) : 0, this.#ends[i]));
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

  protected load(i: number): unknown {
    return this.#values[i];
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

  protected load(i: number): unknown {
    return this.#values[i];
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

  protected load(i: number): unknown {
    return this.#values[i] === 1;
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
