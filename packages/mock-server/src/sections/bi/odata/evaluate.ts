import { Kept } from "../../../core/kept.ts";
import type { Expr, OrderByItem } from "./parser.ts";

export type Scalar = string | number | boolean | null;
export type Row = Readonly<Record<string, Scalar>>;
type Compiled = (row: Row) => Scalar;

/**
 * Compile a type-checked expression into a closure over a row. DateTimeOffset values become epoch
 * milliseconds, Date values stay `YYYY-MM-DD` strings (and become UTC midnight when compared with a
 * DateTimeOffset). Any operand that is null makes comparisons other than eq/ne false, as OData specifies.
 */
export function compile(expr: Expr): Compiled {
  switch (expr.kind) {
    case "literal": {
      const v = expr.value;
      return () => v;
    }
    case "property": {
      const name = expr.name;
      if (expr.type === "DateTimeOffset") {
        return (row) => {
          const v = row[name];
          return typeof v === "string" ? Date.parse(v) : (v ?? null);
        };
      }
      return (row) => row[name] ?? null;
    }
    case "logical": {
      const l = compile(expr.left);
      const r = compile(expr.right);
      return expr.op === "and"
        ? (row) => l(row) === true && r(row) === true
        : (row) => l(row) === true || r(row) === true;
    }
    case "not": {
      const o = compile(expr.operand);
      return (row) => {
        const v = o(row);
        return v === null ? null : !v;
      };
    }
    case "compare": {
      const [l, r] = coercePair(expr.left, expr.right);
      return compareFn(expr.op, l, r);
    }
    case "in": {
      const pairs = expr.list.map((item) => coercePair(expr.left, item));
      const fns = pairs.map(([l, r]) => compareFn("eq", l, r));
      return (row) => fns.some((f) => f(row) === true);
    }
    case "call":
      return compileCall(expr.name, expr.args.map(compile), expr.args);
  }
}

/** Compile both sides, promoting a Date to epoch ms when the other side is a DateTimeOffset. */
function coercePair(left: Expr, right: Expr): [Compiled, Compiled] {
  let l = compile(left);
  let r = compile(right);
  if (left.type === "Date" && right.type === "DateTimeOffset") l = dateToMs(l);
  if (right.type === "Date" && left.type === "DateTimeOffset") r = dateToMs(r);
  return [l, r];
}

function dateToMs(f: Compiled): Compiled {
  return (row) => {
    const v = f(row);
    return typeof v === "string" ? Date.parse(`${v}T00:00:00Z`) : v;
  };
}

function compareFn(op: string, l: Compiled, r: Compiled): Compiled {
  switch (op) {
    case "eq":
      return (row) => l(row) === r(row);
    case "ne":
      return (row) => l(row) !== r(row);
    default:
      return (row) => {
        const a = l(row);
        const b = r(row);
        if (a === null || b === null) return false;
        const c = a < b ? -1 : a > b ? 1 : 0;
        switch (op) {
          case "gt":
            return c > 0;
          case "ge":
            return c >= 0;
          case "lt":
            return c < 0;
          default:
            return c <= 0;
        }
      };
  }
}

function parts(v: Scalar): Date | null {
  if (v === null) return null;
  if (typeof v === "number") return new Date(v);
  if (typeof v === "string") return new Date(v.length === 10 ? `${v}T00:00:00Z` : v);
  return null;
}

function compileCall(name: string, args: Compiled[], exprs: Expr[]): Compiled {
  const [a, b] = args as [Compiled, Compiled];
  const str = (f: Compiled, row: Row): string | null => {
    const v = f(row);
    return v === null ? null : String(v);
  };
  const str2 = (fn: (x: string, y: string) => Scalar): Compiled => {
    return (row) => {
      const x = str(a, row);
      const y = str(b, row);
      return x === null || y === null ? null : fn(x, y);
    };
  };
  const str1 = (fn: (x: string) => Scalar): Compiled => {
    return (row) => {
      const x = str(a, row);
      return x === null ? null : fn(x);
    };
  };
  const datePart = (fn: (d: Date) => number | string): Compiled => {
    return (row) => {
      const d = parts(a(row));
      return d === null || Number.isNaN(d.getTime()) ? null : fn(d);
    };
  };
  const slowDate = datePart((d) => d.toISOString().slice(0, 10));
  switch (name) {
    case "contains":
      return str2((x, y) => x.includes(y));
    case "startswith":
      return str2((x, y) => x.startsWith(y));
    case "endswith":
      return str2((x, y) => x.endsWith(y));
    case "indexof":
      return str2((x, y) => x.indexOf(y));
    case "concat":
      return str2((x, y) => x + y);
    case "tolower":
      return str1((x) => x.toLowerCase());
    case "toupper":
      return str1((x) => x.toUpperCase());
    case "trim":
      return str1((x) => x.trim());
    case "length":
      return str1((x) => [...x].length);
    case "year":
      return datePart((d) => d.getUTCFullYear());
    case "month":
      return datePart((d) => d.getUTCMonth() + 1);
    case "day":
      return datePart((d) => d.getUTCDate());
    case "hour":
      return onMs(
        a,
        (ms) => Math.floor(ms / 3_600_000),
        24,
        datePart((d) => d.getUTCHours()),
      );
    case "minute":
      return onMs(
        a,
        (ms) => Math.floor(ms / 60_000),
        60,
        datePart((d) => d.getUTCMinutes()),
      );
    case "second":
      return onMs(
        a,
        (ms) => Math.floor(ms / 1000),
        60,
        datePart((d) => d.getUTCSeconds()),
      );
    case "date":
      return (row) => {
        const v = a(row);
        return typeof v === "number" && Number.isFinite(v)
          ? dayText(Math.floor(v / 86_400_000))
          : slowDate(row);
      };
    default:
      throw new Error(`compileCall: unhandled function ${name} (${exprs.length} args)`);
  }
}

/**
 * A date part of an epoch-ms value by arithmetic (aggregations evaluate it per row of a million; a `Date` per row
 * was most of the time), other values through `slow`.
 */
function onMs(a: Compiled, units: (ms: number) => number, modulo: number, slow: Compiled): Compiled {
  return (row) => {
    const v = a(row);
    if (typeof v !== "number" || !Number.isFinite(v)) return slow(row);
    return ((units(v) % modulo) + modulo) % modulo;
  };
}

const dayTexts = new Kept<number, string>(4096);
/** `YYYY-MM-DD` of a day number since the epoch (kept: a year of history has 365). */
function dayText(day: number): string {
  return dayTexts.get(day, formatDay);
}

function formatDay(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** A predicate for `$filter`: only rows where the expression is exactly `true` pass. */
export function compileFilter(expr: Expr): (row: Row) => boolean {
  const f = compile(expr);
  return (row) => f(row) === true;
}

/**
 * A total order for `$orderby` followed by the entity key (so paging is deterministic). Nulls sort first
 * ascending, last descending (as most OData services and SQL Server do).
 */
export function compileOrder(items: OrderByItem[], key: string): (a: Row, b: Row) => number {
  const keys = [
    ...items.map((i) => ({ f: compile(i.expr), desc: i.descending })),
    { f: compile({ kind: "property", type: "String", name: key }), desc: false },
  ];
  return (x, y) => {
    for (const k of keys) {
      const c = compareScalars(k.f(x), k.f(y));
      if (c !== 0) return k.desc ? -c : c;
    }
    return 0;
  };
}

/** Compare sort values extracted from rows; exported for skiptoken resumption. */
export function compareScalars(a: Scalar, b: Scalar): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Evaluate the sort key tuple of a row (used to encode the position in a `$skiptoken`). */
export function sortKeyOf(items: OrderByItem[], key: string): (row: Row) => Scalar[] {
  const fs = [...items.map((i) => compile(i.expr)), (row: Row) => row[key] ?? null];
  return (row) => fs.map((f) => f(row));
}
