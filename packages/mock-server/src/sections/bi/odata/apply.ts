import { badRequest, notImplemented } from "./errors.ts";
import {
  type EdmType,
  type Expr,
  type PropertyTypes,
  parseApplyExpression,
  unknownProperty,
} from "./parser.ts";

/**
 * `$apply` (OData Data Aggregation Extension 4.0) as far as the feed implements it: a `/`-separated sequence of
 * - `filter(<Boolean expression>)`,
 * - `compute(<expression> as <Alias>, …)` (time buckets: `date(IssuedAt) as Day`, `hour(ScannedAt) as Hour`),
 * - one `groupby((<Property or alias>, …)[, aggregate(…)])` or `aggregate(…)`,
 * - after it, `filter(…)` on the aggregated rows.
 * An aggregate is `<expression> with sum|average|min|max|countdistinct as <Alias>` or `$count as <Alias>`.
 * Anything else is a 400 naming the part (a 501 for the extension's other transformations).
 */

export type Method = "sum" | "average" | "min" | "max" | "countdistinct" | "count";

export interface Aggregate {
  method: Method;
  /** The aggregated expression (`null` for `$count`). */
  expr: Expr | null;
  alias: string;
  type: EdmType;
}

export type PreStep =
  | { kind: "filter"; expr: Expr }
  | { kind: "compute"; items: { alias: string; expr: Expr }[] };

export interface Grouping {
  /** Grouping properties (dataset properties or computed aliases); empty for a plain `aggregate(…)`. */
  by: string[];
  aggregates: Aggregate[];
}

export interface ApplyPlan {
  /** Steps on the dataset's rows, in order. */
  pre: PreStep[];
  grouping: Grouping;
  /** Filters on the aggregated rows. */
  post: Expr[];
  /** Dataset properties the plan reads. */
  reads: string[];
  /** Properties of the rows the grouping sees: the dataset's and the computed aliases. */
  rowTypes: PropertyTypes;
  /** Properties of the rows the plan yields (what `$filter`, `$orderby` and `$select` then refer to). */
  output: PropertyTypes;
}

/** Transformations of the extension the feed does not offer (501 rather than 400). */
const UNSUPPORTED = new Set([
  "topcount",
  "topsum",
  "toppercent",
  "bottomcount",
  "bottomsum",
  "bottompercent",
]);
const UNSUPPORTED_MORE = new Set([
  "identity",
  "concat",
  "expand",
  "search",
  "nest",
  "join",
  "outerjoin",
  "orderby",
]);
const NUMERIC = new Set<EdmType>(["Int32", "Int64", "Decimal"]);
const ORDERED = new Set<EdmType>(["Int32", "Int64", "Decimal", "Date", "DateTimeOffset", "String"]);
const ALIAS = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** Split at `separator` outside quotes and parentheses. */
function splitTop(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") quoted = !quoted;
    else if (quoted) continue;
    else if (c === "(") depth++;
    else if (c === ")") depth--;
    else if (c === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `name(args)` → [name, args]; the closing parenthesis must be the last character. */
function call(text: string): [string, string] | null {
  const m = /^\s*([A-Za-z]+)\s*\(([\s\S]*)\)\s*$/.exec(text);
  if (!m) return null;
  const inner = m[2] as string;
  // The parentheses must match: `f(a)(b)` is not one call.
  let depth = 0;
  let quoted = false;
  for (const c of inner) {
    if (c === "'") quoted = !quoted;
    else if (!quoted && c === "(") depth++;
    else if (!quoted && c === ")" && --depth < 0) return null;
  }
  return depth === 0 ? [(m[1] as string).toLowerCase(), inner] : null;
}

const form = (text: string, expected: string) =>
  badRequest("applyForm", { text: text.trim().slice(0, 120), expected: `@${expected}` }, "$apply");

/** `<expression> as <Alias>` → [expression text, alias]. */
function aliased(text: string, expected: string): [string, string] {
  const m = /^([\s\S]+?)\s+as\s+([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(text.trim());
  if (!m || !ALIAS.test(m[2] as string)) throw form(text, expected);
  return [m[1] as string, m[2] as string];
}

/**
 * Parse `$apply` against a dataset's properties.
 * @example parseApply("filter(Status ne 'cancelled')/groupby((EventId),aggregate($count as Tickets))", props, "Tickets")
 */
export function parseApply(input: string, props: PropertyTypes, setName: string): ApplyPlan {
  if (input.trim() === "") throw badRequest("empty", { option: "$apply" }, "$apply");
  const types: Record<string, EdmType> = { ...props };
  const reads = new Set<string>();
  const pre: PreStep[] = [];
  const post: Expr[] = [];
  let grouping: Grouping | null = null;
  let rowTypes: PropertyTypes = props;
  const expression = (text: string, boolean: boolean) => {
    const expr = parseApplyExpression(text, types, setName, boolean);
    if (grouping === null) collectReads(expr, props, reads);
    return expr;
  };
  const newName = (alias: string) => {
    if (Object.hasOwn(types, alias)) throw badRequest("applyAlias", { alias }, "$apply");
  };

  for (const step of splitTop(input, "/")) {
    const parsed = call(step);
    if (!parsed) throw form(step, "applyTransformationForm");
    const [name, args] = parsed;
    if (grouping !== null && name !== "filter") throw badRequest("applyAfterGrouping", {}, "$apply");
    switch (name) {
      case "filter":
        if (grouping === null) pre.push({ kind: "filter", expr: expression(args, true) });
        else post.push(expression(args, true));
        break;
      case "compute": {
        const items = splitTop(args, ",").map((item) => {
          const [text, alias] = aliased(item, "applyComputeForm");
          const expr = expression(text, false);
          newName(alias);
          types[alias] = expr.type === "Null" ? "String" : expr.type;
          return { alias, expr };
        });
        pre.push({ kind: "compute", items });
        break;
      }
      case "aggregate":
        grouping = { by: [], aggregates: aggregates(args) };
        break;
      case "groupby": {
        const [list, more, ...rest] = splitTop(args, ",");
        const names = /^\s*\(([\s\S]*)\)\s*$/.exec(list ?? "");
        if (!names || rest.length > 0) throw form(args, "applyGroupbyForm");
        const by = splitTop(names[1] as string, ",").map((n) => n.trim());
        for (const n of by) {
          if (!Object.hasOwn(types, n)) throw unknownProperty(n, types, setName, "$apply");
          if (Object.hasOwn(props, n)) reads.add(n);
        }
        let aggs: Aggregate[] = [];
        if (more !== undefined) {
          const inner = call(more);
          if (inner?.[0] !== "aggregate") throw form(more, "applyGroupbyForm");
          aggs = aggregates(inner[1]);
        }
        grouping = { by: [...new Set(by)], aggregates: aggs };
        break;
      }
      default:
        if (UNSUPPORTED.has(name) || UNSUPPORTED_MORE.has(name))
          throw notImplemented("unsupportedFunction", { name, option: "$apply" }, "$apply");
        throw badRequest("applyTransformation", { name }, "$apply");
    }
    if (grouping !== null && (name === "aggregate" || name === "groupby")) {
      // From here on, names are those of the aggregated rows.
      const g = grouping as Grouping;
      rowTypes = { ...types };
      const output: Record<string, EdmType> = {};
      for (const n of g.by) output[n] = types[n] as EdmType;
      for (const a of g.aggregates) output[a.alias] = a.type;
      for (const k of Object.keys(types)) delete types[k];
      Object.assign(types, output);
    }
  }
  // Rows pass through only aggregated: a plan without groupby or aggregate would be $filter by another name.
  if (grouping === null) throw badRequest("applyNeedsGrouping", {}, "$apply");
  return { pre, grouping, post, reads: [...reads], rowTypes, output: { ...types } };

  function aggregates(args: string): Aggregate[] {
    const seen = new Set<string>();
    return splitTop(args, ",").map((item) => {
      const text = item.trim();
      const count = /^\$count\s+as\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
      let aggregate: Aggregate;
      if (count) aggregate = { method: "count", expr: null, alias: count[1] as string, type: "Int64" };
      else {
        const m = /^([\s\S]+?)\s+with\s+([A-Za-z]+)\s+as\s+([A-Za-z_][A-Za-z0-9_]*)$/.exec(text);
        if (!m) throw form(item, "applyAggregateForm");
        const method = (m[2] as string).toLowerCase();
        if (!["sum", "average", "min", "max", "countdistinct"].includes(method))
          throw badRequest("applyMethod", { method: m[2] as string }, "$apply");
        const expr = expression(m[1] as string, false);
        const input = expr.type;
        if ((method === "sum" || method === "average") && !NUMERIC.has(input))
          throw badRequest("applyMethodType", { method, got: input, text: m[1] as string }, "$apply");
        if ((method === "min" || method === "max") && !ORDERED.has(input))
          throw badRequest("applyMethodType", { method, got: input, text: m[1] as string }, "$apply");
        const type: EdmType =
          method === "countdistinct"
            ? "Int64"
            : method === "average"
              ? "Decimal"
              : method === "sum"
                ? input === "Decimal"
                  ? "Decimal"
                  : "Int64"
                : input;
        aggregate = { method: method as Method, expr, alias: m[3] as string, type };
      }
      if (seen.has(aggregate.alias) || Object.hasOwn(types, aggregate.alias))
        throw badRequest("applyAlias", { alias: aggregate.alias }, "$apply");
      seen.add(aggregate.alias);
      return aggregate;
    });
  }
}

/** Dataset properties an expression reads, added to `into`. */
export function collectReads(e: Expr, props: PropertyTypes, into: Set<string>): void {
  switch (e.kind) {
    case "property":
      if (Object.hasOwn(props, e.name)) into.add(e.name);
      return;
    case "call":
      for (const a of e.args) collectReads(a, props, into);
      return;
    case "compare":
    case "logical":
      collectReads(e.left, props, into);
      collectReads(e.right, props, into);
      return;
    case "not":
      collectReads(e.operand, props, into);
      return;
    case "in":
      collectReads(e.left, props, into);
      for (const x of e.list) collectReads(x, props, into);
      return;
    default:
      return;
  }
}
