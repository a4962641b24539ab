import { exportStream } from "./export.ts";
import type { BiFeed } from "./feed.ts";
import { formatLiteral } from "./literals.ts";
import type { BiEntitySet, BiProperty } from "./metadata.ts";
import type { ODataQuery } from "./query.ts";
import type { BiExportOptions, BiExportProgress } from "./types.ts";

/**
 * Incremental exports on the feed's change stamp (`ModifiedAt`, see DECISIONS.md "Change stamp"): a watermark —
 * the (`ModifiedAt`, key) of the last row stored — and a query for the rows after it in that order. Keyset order,
 * so rows that share a timestamp are neither repeated nor skipped when a run starts where the last one ended.
 */

/** The key property of each dataset (`$metadata`'s `<Key>`). */
export const biKeys = {
  Orders: "OrderId",
  Tickets: "TicketId",
  Payments: "PaymentId",
  Entrances: "ScanId",
} as const satisfies { [S in BiEntitySet]: BiProperty<S> };

/** The change stamp every dataset carries. */
export const CHANGE_STAMP = "ModifiedAt";

/** The last row an export stored, in feed order. */
export interface BiWatermark {
  /** Its `ModifiedAt`, as the feed sent it. */
  modifiedAt: string;
  /** Its key. */
  key: string;
}

/**
 * What an incremental export remembers between runs (a small JSON file, or a table in a DuckDB file). Bound to one
 * feed, dataset and `$filter`: a state from another is refused.
 */
export interface BiIncrementalState {
  version: 1;
  /** The feed root, e.g. `https://api.entrada.dev/bi/v1/odata`. */
  feed: string;
  dataset: BiEntitySet;
  /** The export's own `$filter` (besides the watermark), or null. */
  filter: string | null;
  watermark: BiWatermark | null;
  /** Rows exported by all runs so far. */
  rows: number;
  runs: number;
  /** When the last run committed. */
  updatedAt: string | null;
  /**
   * A run whose output was complete but not yet moved into place when the process stopped: the next run finishes
   * the move and commits `watermark` first (see the CLI), so a crash at any point loses and repeats nothing.
   */
  pending?: { partial: string; out: string; watermark: BiWatermark | null; rows: number } | null;
  /**
   * A run that is writing its output (`partial`) right now, or was stopped while writing it: the next run removes
   * that file before it starts (its rows were never committed), or refuses while that process still runs.
   */
  writing?: { partial: string; pid: number; host: string; startedAt: string } | null;
}

export type BiStateErrorCode =
  | "foreign_feed"
  | "foreign_dataset"
  | "foreign_filter"
  | "invalid_state"
  | "busy";

/** A state that does not belong to this export (or is not a state at all). */
export class BiStateError extends Error {
  override readonly name = "BiStateError";
  readonly code: BiStateErrorCode;
  constructor(code: BiStateErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export interface BiStateIdentity {
  feed: BiFeed | string | URL;
  dataset: BiEntitySet;
  filter?: string | null | undefined;
}

const feedRoot = (feed: BiFeed | string | URL): string =>
  (typeof feed === "object" && "root" in feed ? feed.root.href : String(feed)).replace(/\/+$/, "");

/** A fresh state (no watermark: the first run exports everything). */
export function newIncrementalState(identity: BiStateIdentity): BiIncrementalState {
  return {
    version: 1,
    feed: feedRoot(identity.feed),
    dataset: identity.dataset,
    filter: identity.filter ?? null,
    watermark: null,
    rows: 0,
    runs: 0,
    updatedAt: null,
    pending: null,
    writing: null,
  };
}

const isWatermark = (w: unknown): w is BiWatermark =>
  typeof w === "object" &&
  w !== null &&
  typeof (w as BiWatermark).modifiedAt === "string" &&
  !Number.isNaN(Date.parse((w as BiWatermark).modifiedAt)) &&
  typeof (w as BiWatermark).key === "string";

/**
 * Parses a saved state and checks it belongs to this export. `undefined` (no file yet) gives a fresh state.
 * @throws BiStateError `foreign_feed`, `foreign_dataset`, `foreign_filter` or `invalid_state`, with a message that
 * names both sides.
 */
export function readIncrementalState(
  text: string | undefined,
  identity: BiStateIdentity,
): BiIncrementalState {
  const expected = newIncrementalState(identity);
  if (text === undefined) return expected;
  let parsed: Partial<BiIncrementalState>;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new BiStateError("invalid_state", "The state file is not JSON (not written by entrada-bi-export?)");
  }
  if (
    parsed?.version !== 1 ||
    typeof parsed.feed !== "string" ||
    typeof parsed.dataset !== "string" ||
    !(parsed.watermark === null || isWatermark(parsed.watermark)) ||
    typeof parsed.rows !== "number" ||
    typeof parsed.runs !== "number"
  ) {
    throw new BiStateError("invalid_state", "The state file is not an entrada-bi-export state (version 1)");
  }
  if (parsed.feed !== expected.feed) {
    throw new BiStateError(
      "foreign_feed",
      `The state file belongs to the feed ${parsed.feed}, not ${expected.feed}: use a state file per feed`,
    );
  }
  if (parsed.dataset !== expected.dataset) {
    throw new BiStateError(
      "foreign_dataset",
      `The state file belongs to the ${parsed.dataset} dataset, not ${expected.dataset}: use a state file per dataset`,
    );
  }
  if ((parsed.filter ?? null) !== expected.filter) {
    throw new BiStateError(
      "foreign_filter",
      `The state file was written for $filter ${JSON.stringify(parsed.filter ?? null)}, not ${JSON.stringify(expected.filter)}: a changed filter needs a new state file (or a full export)`,
    );
  }
  return {
    ...expected,
    ...parsed,
    filter: expected.filter,
    pending: parsed.pending ?? null,
    writing: parsed.writing ?? null,
  } as BiIncrementalState;
}

/** `a` is after `b` in feed order (`ModifiedAt` as an instant, then the key). */
export function isAfter(a: BiWatermark, b: BiWatermark): boolean {
  const ta = Date.parse(a.modifiedAt);
  const tb = Date.parse(b.modifiedAt);
  return ta !== tb ? ta > tb : a.key > b.key;
}

/**
 * The query for the rows after `watermark`, in watermark order, with `ModifiedAt` and the key added to a `$select`
 * (the next watermark is read from them). The query must not have its own `$orderby`.
 */
export function incrementalQuery<S extends BiEntitySet, K extends BiProperty<S>>(
  query: ODataQuery<S, K>,
  watermark: BiWatermark | null,
): ODataQuery<S, BiProperty<S>> {
  if (query.params().$orderby !== undefined)
    throw new TypeError("An incremental export orders by ModifiedAt and the key itself: drop orderBy()");
  const key = biKeys[query.entitySet] as unknown as BiProperty<S>;
  let q = query as unknown as ODataQuery<S, BiProperty<S>>;
  if (query.selected) q = q.select(...new Set([...query.selected, key, CHANGE_STAMP as BiProperty<S>]));
  if (watermark) {
    const at = formatLiteral("datetime", watermark.modifiedAt);
    q = q.filter(
      `${CHANGE_STAMP} gt ${at} or (${CHANGE_STAMP} eq ${at} and ${key} gt ${formatLiteral("string", watermark.key)})`,
    );
  }
  return q.orderBy(CHANGE_STAMP as BiProperty<S>).orderBy(key);
}

/** Follows the greatest (`ModifiedAt`, key) of the rows it sees. */
export class WatermarkTracker {
  readonly #key: string;
  #mark: BiWatermark | null;
  constructor(dataset: BiEntitySet, start: BiWatermark | null = null) {
    this.#key = biKeys[dataset];
    this.#mark = start;
  }
  observe(rows: readonly Record<string, unknown>[]): void {
    for (const row of rows) {
      const modifiedAt = row[CHANGE_STAMP];
      const key = row[this.#key];
      if (typeof modifiedAt !== "string" || typeof key !== "string") {
        throw new TypeError(
          `A ${this.#key} row without ${CHANGE_STAMP} or key: the feed does not support incremental exports`,
        );
      }
      const mark = { modifiedAt, key };
      if (!this.#mark || isAfter(mark, this.#mark)) this.#mark = mark;
    }
  }
  get watermark(): BiWatermark | null {
    return this.#mark;
  }
}

export interface BiIncrementalResult {
  progress: BiExportProgress;
  /** The state after this run: save it once the output is safely stored (not before). */
  state: BiIncrementalState;
}

/**
 * Streams the rows changed since `state`'s watermark to `destination` and returns the state to save afterwards.
 * Save it only once the output is durable: if the process stops before, the next run repeats this one, so nothing
 * is lost or exported twice.
 * @example
 * const state = readIncrementalState(await readFile(path, "utf8").catch(() => undefined), { feed: bi, dataset: "Tickets" });
 * const { state: next } = await exportIncremental(bi, odata("Tickets"), Writable.toWeb(out), { format: "parquet", state });
 * await writeFile(path, JSON.stringify(next));
 */
export async function exportIncremental<S extends BiEntitySet, K extends BiProperty<S>>(
  feed: BiFeed,
  query: ODataQuery<S, K>,
  destination: WritableStream<Uint8Array>,
  options: BiExportOptions & { state: BiIncrementalState; now?: () => Date },
): Promise<BiIncrementalResult> {
  const { state } = options;
  if (state.dataset !== query.entitySet)
    throw new BiStateError(
      "foreign_dataset",
      `The state belongs to ${state.dataset}, not ${query.entitySet}`,
    );
  const tracker = new WatermarkTracker(query.entitySet, state.watermark);
  let progress: BiExportProgress = { rows: 0, pages: 0, bytes: 0, total: undefined };
  // Every row that reaches the output moves the mark.
  const observe = (rows: readonly unknown[]) => tracker.observe(rows as Record<string, unknown>[]);
  await exportStream(
    feed,
    incrementalQuery(query, state.watermark),
    {
      ...options,
      onProgress: (p) => {
        progress = p;
        options.onProgress?.(p);
      },
    },
    observe,
  ).pipeTo(destination, options.signal ? { signal: options.signal } : {});
  return {
    progress,
    state: {
      ...state,
      watermark: tracker.watermark,
      rows: state.rows + progress.rows,
      runs: state.runs + 1,
      updatedAt: (options.now?.() ?? new Date()).toISOString(),
      pending: null,
      writing: null,
    },
  };
}
