import type { Scalar } from "./odata/evaluate.ts";
import type { Expr } from "./odata/parser.ts";
import { conjuncts, FLIP } from "./odata/plan.ts";

/** A kept column of the history (see `history-columns.ts`). */
export type ColumnView =
  | { kind: "number"; data: Float64Array }
  | { kind: "code"; codes: Uint16Array; values: Scalar[] };

/** A literal as a number column holds it: numbers as they are, instants and dates as epoch ms. */
function asNumber(literal: Extract<Expr, { kind: "literal" }>): number | null {
  if (typeof literal.value === "number") return literal.value;
  if (literal.type === "Date" && typeof literal.value === "string")
    return Date.parse(`${literal.value}T00:00:00Z`);
  return null;
}

/** `P op L` (or `L op P`) on a kept column, as a test of a row number; null when the term is not of that form. */
function test(term: Expr, column: (name: string) => ColumnView | undefined): ((i: number) => boolean) | null {
  if (term.kind !== "compare") return null;
  let op = term.op;
  let property = term.left;
  let literal = term.right;
  if (property.kind !== "property") {
    [property, literal] = [term.right, term.left];
    op = FLIP[op];
  }
  if (property.kind !== "property" || literal.kind !== "literal") return null;
  const c = column(property.name);
  if (!c) return null;
  if (c.kind === "code") {
    if (op !== "eq" && op !== "ne") return null;
    if (literal.value !== null && typeof literal.value !== typeof c.values[1]) return null;
    const code = c.values.indexOf(literal.value);
    const codes = c.codes;
    if (op === "eq") return code < 0 ? () => false : (i) => codes[i] === code;
    return code < 0 ? () => true : (i) => codes[i] !== code;
  }
  const data = c.data;
  if (literal.value === null) {
    if (op === "eq") return (i) => Number.isNaN(data[i] as number);
    if (op === "ne") return (i) => !Number.isNaN(data[i] as number);
    return () => false;
  }
  const n = asNumber(literal);
  if (n === null) return null;
  // NaN (null) compares false and unequal, as OData's null does.
  switch (op) {
    case "eq":
      return (i) => data[i] === n;
    case "ne":
      return (i) => data[i] !== n;
    case "gt":
      return (i) => (data[i] as number) > n;
    case "ge":
      return (i) => (data[i] as number) >= n;
    case "lt":
      return (i) => (data[i] as number) < n;
    case "le":
      return (i) => (data[i] as number) <= n;
  }
}

/**
 * Splits a filter into tests on row numbers that read the kept columns directly (its conjuncts `P eq|ne 'text'` on
 * a coded column, `P eq|ne|gt|ge|lt|le <number, instant or date>` on a number column) and the rest, which is
 * evaluated on the loaded row. A row the tests refuse is never loaded: the usual first filter of a question (a
 * status, a period) costs a few typed-array reads per row.
 */
export function columnTests(
  filter: Expr,
  column: (name: string) => ColumnView | undefined,
): { tests: ((i: number) => boolean)[]; rest: Expr | null } {
  const tests: ((i: number) => boolean)[] = [];
  let rest: Expr | null = null;
  for (const term of conjuncts(filter)) {
    const t = test(term, column);
    if (t) tests.push(t);
    else
      rest = rest === null ? term : { kind: "logical", type: "Boolean", op: "and", left: rest, right: term };
  }
  return { tests, rest };
}
