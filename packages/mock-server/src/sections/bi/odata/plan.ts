import { compileFilter, type Row } from "./evaluate.ts";
import type { ComparisonOp, Expr, OrderByItem } from "./parser.ts";

/**
 * Query plans a sorted index answers. A dataset keeps its rows in key order and in (stamp, key) order (the stamp
 * is the change stamp, `ModifiedAt`); a query whose order is one of these and whose `$filter` is a conjunction of
 * range conditions on that order's leading property selects one contiguous run of the index, found by binary
 * search. Recognised conditions (P the leading property, L a literal, K the key):
 * - `P gt|ge|lt|le|eq L` (either side), Date literals against a DateTimeOffset included;
 * - the keyset condition an incremental export sends after its watermark, on the (stamp, key) order:
 *   `P gt L or (P eq L and K gt 'k')` (`ge` for either comparison too).
 * Anything else has no plan: the generic path filters and sorts (same results, slower).
 */
export interface IndexPlan {
  order: "key" | "stamp";
  /**
   * Binary searches, each over a predicate that is false and then true along the index: a `from` search moves the
   * start of the run to its first true row, an `until` search moves the end of the run there.
   */
  searches: { bound: "from" | "until"; test: (row: Row) => boolean }[];
}

export interface IndexedProperties {
  key: string;
  stamp: string;
}

/**
 * The plan for a query, or null. `orderBy` null means the order does not matter (`/$count`): the filter picks it.
 */
export function indexPlan(
  filter: Expr | null,
  orderBy: OrderByItem[] | null,
  props: IndexedProperties,
): IndexPlan | null {
  const order = orderBy === null ? null : orderOf(orderBy, props);
  if (orderBy !== null && order === null) return null;
  const searches: IndexPlan["searches"] = [];
  let lead: "key" | "stamp" | null = order;
  for (const term of filter ? conjuncts(filter) : []) {
    const range = rangeOf(term, props);
    if (!range) return null;
    if (lead !== null && range.order !== lead) return null;
    lead = range.order;
    searches.push(...range.searches);
  }
  return { order: lead ?? "key", searches };
}

/** The index order an `$orderby` follows: key order for none or the key, (stamp, key) for the stamp first. */
function orderOf(items: OrderByItem[], props: IndexedProperties): "key" | "stamp" | null {
  const ascending = (item: OrderByItem | undefined, name: string) =>
    item !== undefined && !item.descending && item.expr.kind === "property" && item.expr.name === name;
  // Anything after the key is irrelevant: the key is unique.
  if (items.length === 0 || ascending(items[0], props.key)) return "key";
  if (ascending(items[0], props.stamp) && (items.length === 1 || ascending(items[1], props.key)))
    return "stamp";
  return null;
}

/** The terms of a conjunction (`a and b and c` → [a, b, c]). */
export function conjuncts(e: Expr): Expr[] {
  return e.kind === "logical" && e.op === "and" ? [...conjuncts(e.left), ...conjuncts(e.right)] : [e];
}

/** The operator with its sides swapped (`L lt P` is `P gt L`). */
export const FLIP: Record<ComparisonOp, ComparisonOp> = {
  eq: "eq",
  ne: "ne",
  gt: "lt",
  ge: "le",
  lt: "gt",
  le: "ge",
};

type Comparison = { name: string; op: ComparisonOp; property: Expr; literal: Expr };

/** `P op L` or `L op P` as `P op' L`, for a non-null literal; otherwise null. */
function comparison(e: Expr): Comparison | null {
  if (e.kind !== "compare") return null;
  const literal = (x: Expr) => x.kind === "literal" && x.value !== null;
  if (e.left.kind === "property" && literal(e.right))
    return { name: e.left.name, op: e.op, property: e.left, literal: e.right };
  if (e.right.kind === "property" && literal(e.left))
    return { name: e.right.name, op: FLIP[e.op], property: e.right, literal: e.left };
  return null;
}

const test = (c: Comparison, op: ComparisonOp) =>
  compileFilter({ kind: "compare", type: "Boolean", op, left: c.property, right: c.literal });

function rangeOf(
  term: Expr,
  props: IndexedProperties,
): { order: "key" | "stamp"; searches: IndexPlan["searches"] } | null {
  const c = comparison(term);
  if (c) {
    const order = c.name === props.key ? "key" : c.name === props.stamp ? "stamp" : null;
    if (!order) return null;
    switch (c.op) {
      case "gt":
      case "ge":
        return { order, searches: [{ bound: "from", test: test(c, c.op) }] };
      case "lt":
        return { order, searches: [{ bound: "until", test: test(c, "ge") }] };
      case "le":
        return { order, searches: [{ bound: "until", test: test(c, "gt") }] };
      case "eq":
        return {
          order,
          searches: [
            { bound: "from", test: test(c, "ge") },
            { bound: "until", test: test(c, "gt") },
          ],
        };
      default:
        return null;
    }
  }
  // The keyset condition: P > L or (P = L and K > k), with >= allowed in either comparison.
  if (term.kind !== "logical" || term.op !== "or" || term.right.kind !== "logical" || term.right.op !== "and")
    return null;
  const after = comparison(term.left);
  const same = comparison(term.right.left);
  const next = comparison(term.right.right);
  if (
    !after ||
    !same ||
    !next ||
    after.name !== props.stamp ||
    same.name !== props.stamp ||
    next.name !== props.key ||
    (after.op !== "gt" && after.op !== "ge") ||
    same.op !== "eq" ||
    (next.op !== "gt" && next.op !== "ge") ||
    !sameLiteral(after.literal, same.literal)
  )
    return null;
  // Monotone along (stamp, key): false before the watermark, true after it.
  return { order: "stamp", searches: [{ bound: "from", test: compileFilter(term) }] };
}

function sameLiteral(a: Expr, b: Expr): boolean {
  return a.kind === "literal" && b.kind === "literal" && a.type === b.type && a.value === b.value;
}
