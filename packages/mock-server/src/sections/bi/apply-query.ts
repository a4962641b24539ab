import type { FeedRows } from "./feed-query.ts";
import { countCodedGroups, loadRow, visitHistory } from "./history-columns.ts";
import { ApplyRun } from "./odata/aggregate.ts";
import { type ApplyPlan, collectReads, parseApply } from "./odata/apply.ts";
import { badRequest, notImplemented } from "./odata/errors.ts";
import { compileFilter, compileOrder, type Row } from "./odata/evaluate.ts";
import {
  type Expr,
  type OrderByItem,
  type PropertyTypes,
  parseFilter,
  parseOrderBy,
  parseSelect,
} from "./odata/parser.ts";
import { hash, nonNegativeInt, project, SUPPORTED, single, UNSUPPORTED } from "./odata/query.ts";

/**
 * A collection request with `$apply`: the aggregation runs on the feed (over the history's kept columns and the
 * live rows, see `history-columns.ts`), then `$filter`, `$orderby`, `$skip`, `$top`, `$count` and `$select` apply
 * to the aggregated rows (OData evaluates system query options after `$apply`), paged like any collection. The
 * skiptoken is the position in the ordered result, bound to the query: the result of a question is recomputed
 * per page, and a query that changed in between is refused rather than paged wrongly.
 */
export interface ApplyQuery {
  plan: ApplyPlan;
  filter: ((row: Row) => boolean) | null;
  orderBy: OrderByItem[];
  select: string[] | null;
  top: number | null;
  skip: number;
  count: boolean;
  /** Rows already returned, from `$skiptoken`. */
  offset: number;
  fingerprint: string;
}

/** With `$apply`, the options of a collection request and `$apply` itself; the rest of `UNSUPPORTED` stays 501. */
const OPTIONS = new Set([...SUPPORTED, "$apply"]);
const NOT_OFFERED = new Set([...UNSUPPORTED].filter((o) => o !== "$apply"));

const whole = (value: string | undefined, name: string): number | null =>
  value === undefined ? null : nonNegativeInt(value, name);

/** Parse a collection request that carries `$apply`. */
export function parseApplyQuery(
  query: Record<string, string | string[]>,
  props: PropertyTypes,
  setName: string,
): ApplyQuery {
  for (const name of Object.keys(query)) {
    if (!name.startsWith("$") || OPTIONS.has(name)) continue;
    if (NOT_OFFERED.has(name)) throw notImplemented("unsupportedOption", { option: name }, name);
    throw badRequest("unknownOption", { option: name }, name);
  }
  const format = single(query, "$format");
  if (format !== undefined && !/^(json|application\/json)(;.*)?$/i.test(format))
    throw notImplemented("unsupportedFormat", { value: format }, "$format");
  const applyText = single(query, "$apply") ?? "";
  const plan = parseApply(applyText, props, setName);
  const filterText = single(query, "$filter");
  const orderText = single(query, "$orderby");
  const selectText = single(query, "$select");
  const countText = single(query, "$count");
  if (countText !== undefined && countText !== "true" && countText !== "false")
    throw badRequest("countValue", { value: countText }, "$count");
  const topText = single(query, "$top");
  const skipText = single(query, "$skip");
  const fingerprint = hash(
    [applyText, filterText, orderText, topText, skipText].map((v) => v ?? "\u0000").join("\u0001"),
  );
  const token = single(query, "$skiptoken");
  let offset = 0;
  if (token !== undefined) {
    const m = /^a(\d{1,9})\.([0-9a-z]+)$/.exec(token);
    if (!m) throw badRequest("skipTokenInvalid", {}, "$skiptoken", "InvalidSkipToken");
    if (m[2] !== fingerprint) throw badRequest("skipTokenMismatch", {}, "$skiptoken", "InvalidSkipToken");
    offset = Number(m[1]);
  }
  return {
    plan,
    filter: filterText === undefined ? null : compileFilter(parseFilter(filterText, plan.output, setName)),
    orderBy: orderText === undefined ? [] : parseOrderBy(orderText, plan.output, setName),
    select: selectText === undefined ? null : parseSelect(selectText, plan.output, setName),
    top: whole(topText, "$top"),
    skip: whole(skipText, "$skip") ?? 0,
    count: countText === "true",
    offset,
    fingerprint,
  };
}

/** Aggregates the rows of a dataset: the history from its columns, the live rows as they are. */
export function aggregateFeedRows(rows: FeedRows, plan: ApplyPlan): Row[] {
  const run = new ApplyRun(plan);
  const visit = () => run.visit();
  const counted = rows.history ? countedGroups(rows, plan) : null;
  if (counted) {
    // Counted per group on the columns: each group enters the run once, with its count.
    for (const group of counted) {
      plan.grouping.by.forEach((name, j) => {
        run.scratch[name] = group.values[j] ?? null;
      });
      run.visit(plan.pre.length, group.count);
    }
  } else if (rows.history) {
    // A leading filter(…) is tested on the history's columns before a row is loaded; the run skips it there.
    const first = plan.pre[0]?.kind === "filter" ? plan.pre[0].expr : null;
    const after = first ? () => run.visit(1) : visit;
    const hoisted = first ? { expr: first, only: readOnlyBy(plan, first) } : null;
    visitHistory(rows.history, rows.culture, plan.reads, plan.rowTypes, run.scratch, after, hoisted);
  }
  for (const row of rows.live) {
    loadRow(row, plan.reads, plan.rowTypes, run.scratch);
    visit();
  }
  return run.result();
}

/**
 * `filter(…)/groupby((coded columns), aggregate($count as …))` over the history, counted on its columns; null for
 * any other plan (computed buckets, other aggregates, filters the columns do not decide).
 */
function countedGroups(rows: FeedRows, plan: ApplyPlan) {
  const { by, aggregates } = plan.grouping;
  if (!rows.history || by.length === 0 || aggregates.some((a) => a.method !== "count")) return null;
  if (plan.pre.length > 1 || (plan.pre[0] && plan.pre[0].kind !== "filter")) return null;
  const filter = plan.pre[0]?.kind === "filter" ? plan.pre[0].expr : null;
  return countCodedGroups(rows.history, rows.culture, by, plan.rowTypes, filter);
}

/** Properties only the leading filter reads (a row need not load them once the columns have tested it). */
function readOnlyBy(plan: ApplyPlan, filter: Expr): Set<string> {
  const later = new Set<string>();
  for (const step of plan.pre.slice(1))
    if (step.kind === "filter") collectReads(step.expr, plan.rowTypes, later);
    else for (const item of step.items) collectReads(item.expr, plan.rowTypes, later);
  for (const name of plan.grouping.by) later.add(name);
  for (const a of plan.grouping.aggregates) if (a.expr) collectReads(a.expr, plan.rowTypes, later);
  const own = new Set<string>();
  collectReads(filter, plan.rowTypes, own);
  return new Set([...own].filter((name) => !later.has(name)));
}

export interface ApplyPage {
  rows: Row[];
  count: number | null;
  nextSkipToken: string | null;
}

/** The page of an aggregation request: aggregate, then `$filter`, `$orderby`, `$skip`/`$top` and paging. */
export function runApplyQuery(rows: FeedRows, q: ApplyQuery, pageSize: number): ApplyPage {
  let result = aggregateFeedRows(rows, q.plan);
  if (q.filter) result = result.filter(q.filter);
  // The aggregated rows come ordered by their grouping values; $orderby sorts stably on top of that.
  if (q.orderBy.length > 0) result.sort(compileOrder(q.orderBy, "\u0000"));
  const total = result.length;
  const end = Math.min(total, q.top === null ? total : q.skip + q.top);
  const from = Math.min(end, q.skip + q.offset);
  const until = Math.min(end, from + pageSize);
  const page = result.slice(from, until).map((row) => project(row, q.select));
  return {
    rows: page,
    count: q.count ? total : null,
    nextSkipToken: until < end ? `a${until - q.skip}.${q.fingerprint}` : null,
  };
}
