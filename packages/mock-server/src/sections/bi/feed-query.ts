import type { Culture } from "../../core/types.ts";
import { visitHistory } from "./history-columns.ts";
import type { HistoryTable } from "./history-index.ts";
import { collectReads } from "./odata/apply.ts";
import { compileOrder, type Row, type Scalar } from "./odata/evaluate.ts";
import type { PropertyTypes } from "./odata/parser.ts";
import { type IndexPlan, indexPlan } from "./odata/plan.ts";
import { afterToken, type EntitySetQuery, type Page, pageOf, pageTake, runQuery } from "./odata/query.ts";

/**
 * A query over one dataset of the feed: the seeded history (indexed, see `history-index.ts`) and the live rows of
 * the world (few, derived per request). Plans an index answers (`odata/plan.ts`) page by binary search and merge
 * in the live rows; every other query takes the generic path over all rows (`runQuery`): same rows, same order,
 * same skiptokens either way.
 */
export interface FeedRows {
  history: HistoryTable | null;
  live: Row[];
  culture: Culture;
}

/** The feed's change stamp: every dataset has it, and the history keeps an index in its order. */
export const CHANGE_STAMP = "ModifiedAt";

export function runFeedQuery(
  rows: FeedRows,
  q: EntitySetQuery,
  key: string,
  pageSize: number,
  types: PropertyTypes,
): Page {
  // `$top=0&$count=true`, how Excel and Power BI ask for a count alone: counted as `/$count` counts, no row drawn.
  if (q.top === 0 && q.count)
    return { rows: [], count: countFeedRows(rows, q, key, types), nextSkipToken: null };
  const plan = rows.history ? indexPlan(q.filterExpr, q.orderBy, { key, stamp: CHANGE_STAMP }) : null;
  const page = rows.history && plan ? indexedPage(rows.history, plan, rows, q, key, pageSize) : null;
  return page ?? runQuery(allRows(rows), q, key, pageSize);
}

/**
 * The number of rows matching `$filter` (`/{set}/$count`): by binary search when an index answers the filter (the
 * key, the change stamp), else over the history's kept columns (`history-columns.ts`), as an aggregation reads
 * them: BI tools ask for filtered counts all the time, and drawing every row for one took seconds at a million.
 */
export function countFeedRows(rows: FeedRows, q: EntitySetQuery, key: string, types: PropertyTypes): number {
  const live = q.filter ? rows.live.filter(q.filter).length : rows.live.length;
  if (!rows.history) return live;
  const plan = indexPlan(q.filterExpr, null, { key, stamp: CHANGE_STAMP });
  if (plan) {
    const [from, until] = run(rows.history, plan, rows.culture);
    return until - from + live;
  }
  if (!q.filterExpr) return rows.history.size + live;
  const reads = new Set<string>();
  collectReads(q.filterExpr, types, reads);
  let n = live;
  const scratch: Record<string, Scalar> = {};
  const filter = { expr: q.filterExpr, only: reads };
  visitHistory(rows.history, rows.culture, [...reads], types, scratch, () => void n++, filter);
  return n;
}

/** The row with this key, or undefined. */
export function findFeedRow(rows: FeedRows, key: string, value: string): Row | undefined {
  return rows.live.find((r) => r[key] === value) ?? rows.history?.find(value, rows.culture);
}

function* allRows(rows: FeedRows): Generator<Row> {
  if (rows.history) yield* rows.history.scan(rows.culture);
  yield* rows.live;
}

/** The run of the index a plan selects: positions [from, until). */
function run(table: HistoryTable, plan: IndexPlan, culture: Culture): [number, number] {
  const order = plan.order === "key" ? table.byKey : table.byStamp;
  let from = 0;
  let until = order.length;
  for (const search of plan.searches) {
    const first = firstTrue(0, order.length, (i) => search.test(table.row(order[i] as number, culture)));
    if (search.bound === "from") from = Math.max(from, first);
    else until = Math.min(until, first);
  }
  return [from, Math.max(from, until)];
}

/** The first position in [lo, hi) where `test` holds (it is false and then true there), or hi. */
function firstTrue(lo: number, hi: number, test: (i: number) => boolean): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * A page from the index, merged with the matching live rows; null when the plan cannot serve it (a `$skip` into
 * a merge with live rows: the generic path counts it out).
 */
function indexedPage(
  table: HistoryTable,
  plan: IndexPlan,
  rows: FeedRows,
  q: EntitySetQuery,
  key: string,
  pageSize: number,
): Page | null {
  const cmp = compileOrder(q.orderBy, key);
  const live = (q.filter ? rows.live.filter(q.filter) : rows.live.slice()).sort(cmp);
  if (!q.skipToken && q.skip > 0 && live.length > 0) return null;
  const order = plan.order === "key" ? table.byKey : table.byStamp;
  const at = (i: number) => table.row(order[i] as number, rows.culture);
  const [from, until] = run(table, plan, rows.culture);
  const total = until - from + live.length;
  let h: number;
  let l: number;
  if (q.skipToken) {
    const after = afterToken(q, key);
    h = firstTrue(from, until, (i) => after(at(i)));
    l = firstTrue(0, live.length, (i) => after(live[i] as Row));
  } else {
    h = Math.min(from + q.skip, until);
    l = 0;
  }
  const start = q.skipToken ? h - from + l : Math.min(q.skip, total);
  const take = pageTake(q, pageSize);
  const page: Row[] = [];
  while (page.length < take && (h < until || l < live.length)) {
    const next = h < until ? at(h) : null;
    const other = l < live.length ? (live[l] as Row) : null;
    if (next && (!other || cmp(next, other) < 0)) {
      page.push(next);
      h++;
    } else {
      page.push(other as Row);
      l++;
    }
  }
  return pageOf(page, q, key, { start, total, take });
}
