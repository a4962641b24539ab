import { formatLiteral } from "./literals.ts";
import {
  type BiEntitySet,
  type BiFilterValue,
  type BiProperty,
  type BiPropertyOfKind,
  type ODataKind,
  propertyKind,
} from "./metadata.ts";

/** A boolean `$filter` expression. Build with the `f` helpers; `text` is the unencoded OData. */
export class ODataFilter {
  /** @internal `and`/`or` for compound expressions, so nesting adds parentheses only where needed. */
  readonly op: "and" | "or" | undefined;
  readonly text: string;
  constructor(text: string, op?: "and" | "or") {
    this.text = text;
    this.op = op;
  }
  toString(): string {
    return this.text;
  }
}

/** A computed operand such as `tolower(holderName)` or `year(issuedAt)`; `T` is the type it compares with. */
export interface ODataOperand<T> {
  readonly text: string;
  readonly kind: ODataKind;
  /** @internal phantom */
  readonly __type?: T;
}

type StringProperty<S extends BiEntitySet> = BiPropertyOfKind<S, "string">;
type TemporalProperty<S extends BiEntitySet> = BiPropertyOfKind<S, "date" | "datetime">;
type Comparison<S extends BiEntitySet> = {
  <P extends BiProperty<S>>(property: P, value: BiFilterValue<S, P>): ODataFilter;
  <T>(operand: ODataOperand<T>, value: T): ODataFilter;
};

/** The helpers a `filter(f => ...)` callback receives, typed by the dataset. */
export interface ODataFilterBuilder<S extends BiEntitySet> {
  eq: Comparison<S>;
  ne: Comparison<S>;
  gt: Comparison<S>;
  ge: Comparison<S>;
  lt: Comparison<S>;
  le: Comparison<S>;
  /** `property in (v1, v2, ...)`; at least one value. */
  in<P extends BiProperty<S>>(property: P, values: readonly BiFilterValue<S, P>[]): ODataFilter;
  and(...filters: ODataFilter[]): ODataFilter;
  or(...filters: ODataFilter[]): ODataFilter;
  not(filter: ODataFilter): ODataFilter;
  contains(property: StringProperty<S> | ODataOperand<string>, value: string): ODataFilter;
  startswith(property: StringProperty<S> | ODataOperand<string>, value: string): ODataFilter;
  endswith(property: StringProperty<S> | ODataOperand<string>, value: string): ODataFilter;
  tolower(property: StringProperty<S>): ODataOperand<string>;
  toupper(property: StringProperty<S>): ODataOperand<string>;
  year(property: TemporalProperty<S>): ODataOperand<number>;
  month(property: TemporalProperty<S>): ODataOperand<number>;
  day(property: TemporalProperty<S>): ODataOperand<number>;
}

const operand = (text: string, kind: ODataKind): ODataOperand<never> => ({ text, kind });

export function filterBuilder<S extends BiEntitySet>(set: S): ODataFilterBuilder<S> {
  const ref = (
    left: string | ODataOperand<unknown>,
    expected?: readonly ODataKind[],
  ): ODataOperand<unknown> => {
    if (typeof left !== "string") return left;
    const { kind } = propertyKind(set, left);
    if (expected && !expected.includes(kind)) {
      throw new TypeError(`${set}.${left} is ${kind}; expected ${expected.join(" or ")}`);
    }
    return operand(left, kind);
  };
  const compare =
    (op: string) =>
    (left: string | ODataOperand<unknown>, value: unknown): ODataFilter => {
      const o = ref(left);
      return new ODataFilter(`${o.text} ${op} ${formatLiteral(o.kind, value)}`);
    };
  const join = (op: "and" | "or", filters: ODataFilter[]): ODataFilter => {
    if (!filters.length) throw new TypeError(`${op}() needs at least one filter`);
    if (filters.length === 1) return filters[0] as ODataFilter;
    // `and` binds tighter than `or`: only an `or` inside an `and` needs parentheses.
    const parts = filters.map((f) => (op === "and" && f.op === "or" ? `(${f.text})` : f.text));
    return new ODataFilter(parts.join(` ${op} `), op);
  };
  const text = (name: string) => (left: string | ODataOperand<unknown>, value: string) =>
    new ODataFilter(`${name}(${ref(left, ["string"]).text},${formatLiteral("string", value)})`);
  const fn = (name: string, kinds: readonly ODataKind[], result: ODataKind) => (property: string) =>
    operand(`${name}(${ref(property, kinds).text})`, result);
  return {
    eq: compare("eq"),
    ne: compare("ne"),
    gt: compare("gt"),
    ge: compare("ge"),
    lt: compare("lt"),
    le: compare("le"),
    in(property, values) {
      const o = ref(property);
      if (!values.length) throw new TypeError(`in() on ${set}.${property} needs at least one value`);
      return new ODataFilter(`${o.text} in (${values.map((v) => formatLiteral(o.kind, v)).join(",")})`);
    },
    and: (...filters) => join("and", filters),
    or: (...filters) => join("or", filters),
    not: (filter) => new ODataFilter(`not (${filter.text})`),
    contains: text("contains"),
    startswith: text("startswith"),
    endswith: text("endswith"),
    tolower: fn("tolower", ["string"], "string"),
    toupper: fn("toupper", ["string"], "string"),
    year: fn("year", ["date", "datetime"], "int"),
    month: fn("month", ["date", "datetime"], "int"),
    day: fn("day", ["date", "datetime"], "int"),
  } as ODataFilterBuilder<S>;
}
