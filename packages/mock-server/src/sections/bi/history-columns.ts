import type { Culture } from "../../core/types.ts";
import { columnTests } from "./column-filter.ts";
import type { HistoryTable } from "./history-index.ts";
import { compileFilter, type Row, type Scalar } from "./odata/evaluate.ts";
import type { EdmType, Expr, PropertyTypes } from "./odata/parser.ts";

/**
 * Columns of the seeded history for aggregation (`$apply`). The history keeps no rows (see `history-index.ts`),
 * and drawing them all again is too slow for every question. An aggregation
 * instead reads columns built by one such draw and kept: numbers and date-times (as epoch ms) in a Float64Array,
 * everything else dictionary-coded in a Uint16Array (at most 65,535 distinct values; a column with more, such as
 * a key, is not kept, and queries reading it draw the rows instead: same answer, slower). A budget of
 * MAX_COLUMN_BYTES per dataset and culture caps them (least recently used columns go first; sizes in the README's
 * "Aggregation"); they live as long as their history index.
 */

type Column =
  | { kind: "number"; data: Float64Array; used: number }
  | { kind: "code"; codes: Uint16Array; values: Scalar[]; used: number };

/** Bytes of columns kept per dataset and culture. */
export const MAX_COLUMN_BYTES = 96 * 1024 * 1024;
const MAX_CODES = 65_535;
const NUMERIC = new Set<EdmType>(["Int32", "Int64", "Decimal", "DateTimeOffset"]);

/** Columns built along with the first aggregation of a dataset, whatever it reads (one draw serves them all). */
export const ANALYSIS_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  Orders: [
    "CreatedAt",
    "Status",
    "Currency",
    "TotalAmount",
    "DiscountAmount",
    "VoucherCode",
    "TicketCount",
    "Channel",
    "PaymentProviderId",
  ],
  Tickets: [
    "Source",
    "EventId",
    "EventName",
    "EventStartsAt",
    "VenueName",
    "VenueTimeZone",
    "Status",
    "IssuedAt",
    "FirstAdmittedAt",
    "PriceAmount",
    "Currency",
  ],
  Payments: ["PaymentProviderId", "Status", "Amount", "Currency", "CreatedAt"],
  Entrances: ["EventId", "GateId", "GateName", "VenueTimeZone", "Direction", "Result", "ScannedAt"],
};

class TableColumns {
  readonly columns = new Map<string, Column>();
  /** Properties with too many distinct values to code. */
  readonly wide = new Set<string>();
  #clock = 0;

  bytes(): number {
    let n = 0;
    for (const c of this.columns.values()) n += c.kind === "number" ? c.data.byteLength : c.codes.byteLength;
    return n;
  }

  touch(name: string): Column | undefined {
    const column = this.columns.get(name);
    if (column) column.used = ++this.#clock;
    return column;
  }

  /** Draws the table once and keeps a column of each name (those with too many distinct values excepted). */
  build(table: HistoryTable, culture: Culture, names: string[], types: PropertyTypes): void {
    const size = table.size;
    const builders = names.map((name) => {
      const type = types[name] as EdmType;
      if (NUMERIC.has(type))
        return { name, type, data: new Float64Array(size), codes: null, dictionary: null, values: null };
      return {
        name,
        type,
        data: null,
        codes: new Uint16Array(size),
        dictionary: new Map<Scalar, number>([[null, 0]]),
        values: [null] as Scalar[],
      };
    });
    let i = 0;
    let live = builders;
    for (const row of table.scan(culture)) {
      for (const b of live) {
        const v = row[b.name] ?? null;
        if (b.data) b.data[i] = v === null ? Number.NaN : typeof v === "string" ? Date.parse(v) : Number(v);
        else {
          const dictionary = b.dictionary as Map<Scalar, number>;
          let code = dictionary.get(v);
          if (code === undefined) {
            code = (b.values as Scalar[]).push(v) - 1;
            if (code > MAX_CODES) {
              this.wide.add(b.name);
              live = live.filter((x) => x !== b);
              continue;
            }
            dictionary.set(v, code);
          }
          (b.codes as Uint16Array)[i] = code;
        }
      }
      i++;
    }
    for (const b of live) {
      const column: Column = b.data
        ? { kind: "number", data: b.data, used: ++this.#clock }
        : { kind: "code", codes: b.codes as Uint16Array, values: b.values as Scalar[], used: ++this.#clock };
      this.columns.set(b.name, column);
    }
    this.#evict(new Set(names));
  }

  /** Least recently used columns go until the budget holds; the ones just built stay. */
  #evict(keep: Set<string>): void {
    let bytes = this.bytes();
    const byAge = [...this.columns.entries()].sort((a, b) => a[1].used - b[1].used);
    for (const [name, column] of byAge) {
      if (bytes <= MAX_COLUMN_BYTES) return;
      if (keep.has(name)) continue;
      this.columns.delete(name);
      bytes -= column.kind === "number" ? column.data.byteLength : column.codes.byteLength;
    }
  }
}

const stores = new WeakMap<HistoryTable, Map<Culture, TableColumns>>();

function storeOf(table: HistoryTable, culture: Culture): TableColumns {
  let byCulture = stores.get(table);
  if (!byCulture) {
    byCulture = new Map();
    stores.set(table, byCulture);
  }
  let store = byCulture.get(culture);
  if (!store) {
    store = new TableColumns();
    byCulture.set(culture, store);
  }
  return store;
}

/** Bytes of the columns kept for a dataset and culture. */
export function columnBytes(table: HistoryTable, culture: Culture): number {
  return storeOf(table, culture).bytes();
}

/**
 * Builds the columns of `names` (and the dataset's analysis columns) that are not kept yet, in one draw.
 * @example warmHistoryColumns(table, "en-GB", [], types) // the analysis columns, before the first question
 */
export function warmHistoryColumns(
  table: HistoryTable,
  culture: Culture,
  names: readonly string[],
  types: PropertyTypes,
): void {
  const store = storeOf(table, culture);
  const wanted = [...new Set([...names, ...(ANALYSIS_COLUMNS[table.name] ?? [])])].filter(
    (n) => !store.columns.has(n) && !store.wide.has(n) && types[n] !== undefined,
  );
  if (wanted.length > 0) store.build(table, culture, wanted, types);
}

/**
 * Writes each history row's `reads` into `scratch` (date-times as epoch ms, nulls as null) and calls `visit`, from
 * the kept columns; when a read property cannot be kept, from a draw of the rows instead. Rows `filter` refuses
 * are not visited: its conjuncts on kept columns are tested before the row is loaded (`column-filter.ts`).
 */
export function visitHistory(
  table: HistoryTable,
  culture: Culture,
  reads: readonly string[],
  types: PropertyTypes,
  scratch: Record<string, Scalar>,
  visit: () => void,
  filter: { expr: Expr; only: ReadonlySet<string> } | null = null,
): void {
  const store = storeOf(table, culture);
  if (!reads.some((n) => store.wide.has(n))) warmHistoryColumns(table, culture, reads, types);
  const columns = reads.map((n) => store.touch(n));
  if (columns.some((c) => c === undefined)) {
    const passes = filter ? compileFilter(filter.expr) : null;
    for (const row of table.scan(culture)) {
      loadRow(row, reads, types, scratch);
      if (!passes || passes(scratch)) visit();
    }
    return;
  }
  const split = filter ? columnTests(filter.expr, (n) => store.columns.get(n)) : { tests: [], rest: null };
  const tests = split.tests;
  const rest = split.rest ? compileFilter(split.rest) : null;
  // When the columns decide the filter alone, what only the filter reads is not loaded.
  const loaded = reads
    .map((n, j) => [n, columns[j] as Column] as const)
    .filter(([n]) => rest || !filter?.only.has(n));
  const names = loaded.map(([n]) => n);
  const cols = loaded.map(([, c]) => c);
  const width = names.length;
  rows: for (let i = 0; i < table.size; i++) {
    for (const t of tests) if (!t(i)) continue rows;
    for (let j = 0; j < width; j++) {
      const c = cols[j] as Column;
      if (c.kind === "code") scratch[names[j] as string] = c.values[c.codes[i] as number] ?? null;
      else {
        const v = c.data[i] as number;
        scratch[names[j] as string] = Number.isNaN(v) ? null : v;
      }
    }
    if (!rest || rest(scratch)) visit();
  }
}

/** Copies a row's `reads` into `scratch` the way the columns hold them (date-times as epoch ms). */
export function loadRow(
  row: Row,
  reads: readonly string[],
  types: PropertyTypes,
  scratch: Record<string, Scalar>,
): void {
  for (const name of reads) {
    const v = row[name] ?? null;
    scratch[name] = types[name] === "DateTimeOffset" && typeof v === "string" ? Date.parse(v) : v;
  }
}

type Coded = { codes: Uint16Array; values: Scalar[] };
const numberCodes = new WeakMap<Float64Array, Coded | null>();

/**
 * A number column with few distinct values (an event's start) as codes, built on first use and kept with the
 * column (2 bytes a row); null when it has too many values to code.
 */
function codedNumbers(data: Float64Array): Coded | null {
  if (numberCodes.has(data)) return numberCodes.get(data) ?? null;
  const codes = new Uint16Array(data.length);
  const dictionary = new Map<number, number>();
  const values: Scalar[] = [null];
  let coded: Coded | null = { codes, values };
  for (let i = 0; i < data.length; i++) {
    const v = data[i] as number;
    if (Number.isNaN(v)) continue;
    let code = dictionary.get(v);
    if (code === undefined) {
      code = values.push(v) - 1;
      if (code > MAX_CODES) {
        coded = null;
        break;
      }
      dictionary.set(v, code);
    }
    codes[i] = code;
  }
  numberCodes.set(data, coded);
  return coded;
}

/**
 * Counts the history's rows per combination of coded columns (`by`), after a filter the columns decide alone:
 * one typed-array pass with a numeric group key, no row loaded — what grouping events by name, start and venue, or
 * tickets by event and status, needs. Null when a column is not kept as codes or the filter needs the rows.
 */
export function countCodedGroups(
  table: HistoryTable,
  culture: Culture,
  by: readonly string[],
  types: PropertyTypes,
  filter: Expr | null,
): { values: Scalar[]; count: number }[] | null {
  const store = storeOf(table, culture);
  if (by.some((n) => store.wide.has(n))) return null;
  warmHistoryColumns(table, culture, by, types);
  const columns = by.map((n) => store.touch(n));
  if (columns.some((c) => c === undefined)) return null;
  const coded = (columns as Column[]).map((c) => (c.kind === "code" ? c : codedNumbers(c.data)));
  if (coded.some((c) => c === null)) return null;
  // Mixed radix over the dictionaries' sizes: exact while the product stays below 2^53.
  let space = 1;
  for (const c of coded as Coded[]) space *= c.values.length;
  if (space > Number.MAX_SAFE_INTEGER) return null;
  const split = filter ? columnTests(filter, (n) => store.columns.get(n)) : { tests: [], rest: null };
  if (split.rest) return null;
  const tests = split.tests;
  const counts = new Map<number, number>();
  const codes = (coded as Coded[]).map((c) => c.codes);
  const radix = (coded as Coded[]).map((c) => c.values.length);
  rows: for (let i = 0; i < table.size; i++) {
    for (const t of tests) if (!t(i)) continue rows;
    let key = 0;
    for (let j = 0; j < codes.length; j++)
      key = key * (radix[j] as number) + ((codes[j] as Uint16Array)[i] as number);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([key, count]) => {
    const values: Scalar[] = new Array(coded.length);
    for (let j = coded.length - 1; j >= 0; j--) {
      const r = radix[j] as number;
      values[j] = (coded[j] as Coded).values[key % r] ?? null;
      key = Math.floor(key / r);
    }
    return { values, count };
  });
}
