import { Prng } from "../../core/ids.ts";
import type { Culture } from "../../core/types.ts";
import { DATASETS, drawUnit, type HistoryConfig, type HistoryPlan, historyPlan, NO_ROWS } from "./history.ts";
import type { Row } from "./odata/evaluate.ts";
import { radixSortBy } from "./radix-sort.ts";

/**
 * The seeded history, indexed instead of stored. A row is the pair (unit, ordinal): the unit of the history that
 * draws it (an order, an imported ticket, an unknown code) and its place among that unit's rows of the dataset.
 * With the PRNG state at each unit's start, any row can be drawn again on demand, in any culture; each dataset
 * keeps two permutations of its rows — in key order and in (`ModifiedAt`, key) order — so the feed answers the
 * usual paging plans by binary search and materialises only the rows of the page it serves.
 *
 * A row costs its unit (4 bytes), its ordinal (1 byte) and its place in the two permutations (2 × 4 bytes), in any
 * culture; rows kept as objects would cost far more, once per culture (the README's "Large histories" has the
 * figures).
 */

const KEYS = ["OrderId", "TicketId", "PaymentId", "ScanId"] as const;
const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Character code → Crockford base-32 digit, -1 for other characters. */
const DIGIT = new Int8Array(128).fill(-1);
for (let i = 0; i < CROCKFORD.length; i++) DIGIT[CROCKFORD.charCodeAt(i)] = i;

/** One dataset of an indexed history. Row numbers are positions in drawing order. */
export class HistoryTable {
  readonly name: (typeof DATASETS)[number];
  readonly key: string;
  /** Row numbers in key order. */
  readonly byKey: Uint32Array;
  /** Row numbers in (`ModifiedAt`, key) order. */
  readonly byStamp: Uint32Array;
  readonly #index: HistoryIndex;
  readonly #dataset: number;
  readonly #unit: Uint32Array;
  readonly #ordinal: Uint8Array;

  constructor(
    index: HistoryIndex,
    dataset: number,
    parts: { unit: Uint32Array; ordinal: Uint8Array; byKey: Uint32Array; byStamp: Uint32Array },
  ) {
    this.#index = index;
    this.#dataset = dataset;
    this.name = DATASETS[dataset] as (typeof DATASETS)[number];
    this.key = KEYS[dataset] as string;
    this.#unit = parts.unit;
    this.#ordinal = parts.ordinal;
    this.byKey = parts.byKey;
    this.byStamp = parts.byStamp;
  }

  get size(): number {
    return this.#unit.length;
  }

  /** Row number `row` (drawing order), texts in `culture`. */
  row(row: number, culture: Culture): Row {
    const rows = this.#index.unitRows(this.#unit[row] as number, this.#dataset, culture);
    return rows[this.#ordinal[row] as number] as Row;
  }

  /** Every row in drawing order, drawn unit by unit (nothing is kept: for queries no index answers). */
  *scan(culture: Culture): Generator<Row> {
    yield* this.#index.scan(this.#dataset, culture);
  }

  /** The row with this key, by binary search in key order. */
  find(key: string, culture: Culture): Row | undefined {
    let lo = 0;
    let hi = this.byKey.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const row = this.row(this.byKey[mid] as number, culture);
      const k = row[this.key] as string;
      if (k === key) return row;
      if (k < key) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }
}

/** The four datasets of one history, and the PRNG state each unit starts from. */
export class HistoryIndex {
  readonly plan: HistoryPlan;
  readonly tables: readonly HistoryTable[];
  readonly #states: Uint32Array;
  /** Units drawn again to materialise rows so far (not counting scans): what serving pages costs. */
  drawn = 0;
  /** The last units drawn (a page in key order draws the tickets of one order one after another). */
  readonly #recent = new Map<string, Row[]>();

  constructor(config: HistoryConfig) {
    this.plan = historyPlan(config);
    this.#states = new Uint32Array(this.plan.units);
    this.tables = build(this, this.plan, this.#states);
  }

  get rows(): number {
    return this.tables.reduce((n, t) => n + t.size, 0);
  }

  /** The rows of `dataset` that unit `unit` draws (only those are built). */
  unitRows(unit: number, dataset: number, culture: Culture): Row[] {
    const id = `${unit}:${dataset}:${culture}`;
    const cached = this.#recent.get(id);
    if (cached) return cached;
    const rows: Row[] = [];
    this.drawn++;
    const rand = new Prng(this.#states[unit] as number).next;
    drawUnit(this.plan, unit, rand, culture, (row) => void rows.push(row), dataset);
    if (this.#recent.size >= 16) this.#recent.delete(this.#recent.keys().next().value as string);
    this.#recent.set(id, rows);
    return rows;
  }

  *scan(dataset: number, culture: Culture): Generator<Row> {
    const prng = new Prng(this.plan.firstState);
    const rows: Row[] = [];
    for (let unit = 0; unit < this.plan.units; unit++) {
      rows.length = 0;
      drawUnit(this.plan, unit, prng.next, culture, (row) => void rows.push(row), dataset);
      yield* rows;
    }
  }
}

/** Grows typed arrays by half while the units are drawn (row counts are known only afterwards). */
class Column<A extends Uint32Array | Uint8Array | Float64Array> {
  length = 0;
  constructor(
    public data: A,
    private readonly make: (n: number) => A,
  ) {}
  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = this.make(Math.ceil(this.data.length * 1.5));
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }
  /** The filled part (a view: the spare capacity, under a quarter after a good estimate, stays allocated). */
  filled(): A {
    return this.data.subarray(0, this.length) as A;
  }
}

const u32 = (n: number) => new Uint32Array(n);
const u8 = (n: number) => new Uint8Array(n);
const f64 = (n: number) => new Float64Array(n);

/** Draws every unit once, recording where each row comes from and what it sorts by; then sorts. */
function build(index: HistoryIndex, plan: HistoryPlan, states: Uint32Array): HistoryTable[] {
  // Rows per order, measured on the default seed (about 1 order, 1.92 tickets, 1.12 payments, 1.96 scans),
  // plus a little: the columns rarely grow, and never overshoot by more than this.
  const expected = [1, 2, 1.15, 2.05].map((perOrder) => Math.max(64, Math.ceil(plan.orders * perOrder)));
  const columns = expected.map((initial) => ({
    unit: new Column(u32(initial), u32),
    ordinal: new Column(u8(initial), u8),
    stamp: new Column(f64(initial), f64),
    // The key, decoded so that numeric order is string order: prefix (an id into `prefixes`), the ULID's time
    // and its first 6 random characters (30 bits). Ties beyond that compare the strings.
    prefix: new Column(u8(initial), u8),
    time: new Column(f64(initial), f64),
    random: new Column(f64(initial), f64),
  }));
  const prefixes: string[] = [];
  const ordinals = new Uint8Array(DATASETS.length);
  const prng = new Prng(plan.firstState);
  let unit = 0;
  const sink = (dataset: number, key: string, modifiedAt: number) => {
    const c = columns[dataset] as (typeof columns)[number];
    // Keys drawn by the history: a prefix, `_`, and a ULID (10 time characters, 16 random ones).
    const at = key.indexOf("_") + 1;
    const time = decode(key, at, at + 10);
    const random = decode(key, at + 10, at + 16);
    if (at === 0 || key.length !== at + 26 || time < 0 || random < 0)
      throw new Error(`history: unexpected key ${key}`);
    const name = key.slice(0, at);
    let prefix = prefixes.indexOf(name);
    if (prefix < 0) prefix = prefixes.push(name) - 1;
    c.unit.push(unit);
    c.ordinal.push(ordinals[dataset] as number);
    ordinals[dataset] = (ordinals[dataset] as number) + 1;
    c.stamp.push(modifiedAt);
    c.prefix.push(prefix);
    c.time.push(time);
    c.random.push(random);
  };
  for (; unit < plan.units; unit++) {
    states[unit] = prng.state;
    ordinals.fill(0);
    // Only the keys and stamps: no row is built while indexing.
    drawUnit(plan, unit, prng.next, "en-GB", () => {}, NO_ROWS, sink);
  }
  const rank = new Uint8Array(prefixes.length);
  [...prefixes.keys()]
    .sort((a, b) => ((prefixes[a] as string) < (prefixes[b] as string) ? -1 : 1))
    .forEach((id, r) => {
      rank[id] = r;
    });
  return columns.map((c, dataset) => {
    const unitOf = c.unit.filled();
    const ordinal = c.ordinal.filled();
    const { data: stamp } = c.stamp;
    const { data: prefix } = c.prefix;
    const { data: time } = c.time;
    const { data: random } = c.random;
    // Key order: by prefix rank, ULID time and first 6 random characters (least significant first, stable); then
    // runs that tie on all three (practically none) by the full key string.
    const byKey = new Uint32Array(unitOf.length);
    for (let i = 0; i < byKey.length; i++) byKey[i] = i;
    radixSortBy(byKey, random);
    radixSortBy(byKey, time);
    for (let i = 0; i < unitOf.length; i++) prefix[i] = rank[prefix[i] as number] as number;
    radixSortBy(byKey, prefix);
    const same = (a: number, b: number) =>
      prefix[a] === prefix[b] && time[a] === time[b] && random[a] === random[b];
    for (let i = 0; i < byKey.length; ) {
      let j = i + 1;
      while (j < byKey.length && same(byKey[i] as number, byKey[j] as number)) j++;
      if (j - i > 1) {
        const keyOf = (r: number) =>
          (index.unitRows(unitOf[r] as number, dataset, "en-GB")[ordinal[r] as number] as Row)[
            KEYS[dataset] as string
          ] as string;
        const run = [...byKey.subarray(i, j)].sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : 1));
        byKey.set(run, i);
      }
      i = j;
    }
    // Stamp order: by stamp, ties in key order (the sort is stable).
    const byStamp = byKey.slice();
    radixSortBy(byStamp, stamp);
    return new HistoryTable(index, dataset, { unit: unitOf, ordinal, byKey, byStamp });
  });
}

/** Crockford base-32 characters `from`..`to` of a string as a number (≤ 10 characters: exact), or -1. */
function decode(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = DIGIT[text.charCodeAt(i)] ?? -1;
    if (d < 0) return -1;
    n = n * 32 + d;
  }
  return n;
}

const cache = new Map<string, HistoryIndex>();
/** At most this many histories stay indexed, and at most this many rows across them (≈ 13 bytes a row). */
const MAX_INDEXES = 4;
const MAX_ROWS = 8_000_000;

/**
 * The indexed history of a config, built on first use (a million ticket rows: a few seconds) and shared by every
 * session with the same config. Least recently used histories are dropped beyond 4 or 8 million rows in all.
 */
export function historyIndex(config: HistoryConfig): HistoryIndex {
  const id = `${config.seed}:${config.orders}:${Math.floor(config.anchor / 86_400_000)}:${config.days}`;
  let index = cache.get(id);
  if (index) {
    cache.delete(id);
    cache.set(id, index);
    return index;
  }
  index = new HistoryIndex(config);
  cache.set(id, index);
  let rows = [...cache.values()].reduce((n, i) => n + i.rows, 0);
  for (const [oldest, i] of cache) {
    if (cache.size <= 1 || (cache.size <= MAX_INDEXES && rows <= MAX_ROWS)) break;
    cache.delete(oldest);
    rows -= i.rows;
  }
  return index;
}
