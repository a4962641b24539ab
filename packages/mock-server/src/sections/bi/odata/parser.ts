import { editDistance } from "../../../core/edit-distance.ts";
import { badRequest, notImplemented, ODataError } from "./errors.ts";
import { type Token, tokenize } from "./lexer.ts";

/** The EDM primitive types the feed uses. `Null` is the type of the `null` literal. */
export type EdmType =
  | "String"
  | "Int32"
  | "Int64"
  | "Decimal"
  | "Boolean"
  | "Date"
  | "DateTimeOffset"
  | "Null";

export type ComparisonOp = "eq" | "ne" | "gt" | "ge" | "lt" | "le";

/** A type-checked expression tree; `type` is the static EDM type of the node. */
export type Expr =
  | { kind: "literal"; type: EdmType; value: string | number | boolean | null }
  | { kind: "property"; type: EdmType; name: string }
  | { kind: "call"; type: EdmType; name: string; args: Expr[] }
  | { kind: "compare"; type: "Boolean"; op: ComparisonOp; left: Expr; right: Expr }
  | { kind: "logical"; type: "Boolean"; op: "and" | "or"; left: Expr; right: Expr }
  | { kind: "not"; type: "Boolean"; operand: Expr }
  | { kind: "in"; type: "Boolean"; left: Expr; list: Expr[] };

export interface OrderByItem {
  expr: Expr;
  descending: boolean;
}

/** Properties of the entity type a query runs against. */
export type PropertyTypes = Readonly<Record<string, EdmType>>;

const COMPARISONS = new Set<string>(["eq", "ne", "gt", "ge", "lt", "le"]);
const ARITHMETIC = new Set<string>(["add", "sub", "mul", "div", "divby", "mod", "has"]);
const NUMERIC = new Set<EdmType>(["Int32", "Int64", "Decimal"]);
const TEMPORAL = new Set<EdmType>(["Date", "DateTimeOffset"]);

interface FunctionSignature {
  params: EdmType[][];
  returns: EdmType | ((args: Expr[]) => EdmType);
}

const STR: EdmType[] = ["String"];
const TIME: EdmType[] = ["Date", "DateTimeOffset"];
const DT: EdmType[] = ["DateTimeOffset"];

/** Canonical functions we implement. */
const FUNCTIONS: Record<string, FunctionSignature> = {
  contains: { params: [STR, STR], returns: "Boolean" },
  startswith: { params: [STR, STR], returns: "Boolean" },
  endswith: { params: [STR, STR], returns: "Boolean" },
  tolower: { params: [STR], returns: "String" },
  toupper: { params: [STR], returns: "String" },
  trim: { params: [STR], returns: "String" },
  length: { params: [STR], returns: "Int32" },
  indexof: { params: [STR, STR], returns: "Int32" },
  concat: { params: [STR, STR], returns: "String" },
  year: { params: [TIME], returns: "Int32" },
  month: { params: [TIME], returns: "Int32" },
  day: { params: [TIME], returns: "Int32" },
  hour: { params: [DT], returns: "Int32" },
  minute: { params: [DT], returns: "Int32" },
  second: { params: [DT], returns: "Int32" },
  date: { params: [DT], returns: "Date" },
};

/** Canonical OData functions that are valid but not implemented here (→ 501 rather than 400). */
const KNOWN_UNSUPPORTED = new Set([
  "substring",
  "matchespattern",
  "fractionalseconds",
  "totaloffsetminutes",
  "totalseconds",
  "time",
  "now",
  "maxdatetime",
  "mindatetime",
  "round",
  "floor",
  "ceiling",
  "cast",
  "isof",
  "geo.distance",
  "geo.length",
  "geo.intersects",
  "case",
]);

class Parser {
  private i = 0;
  constructor(
    private readonly tokens: Token[],
    private readonly props: PropertyTypes,
    private readonly option: string,
    private readonly setName: string,
  ) {}

  private peek(): Token {
    return this.tokens[this.i] as Token;
  }
  private next(): Token {
    return this.tokens[this.i++] as Token;
  }
  private peekKeyword(word: string): boolean {
    const t = this.peek();
    return t.kind === "ident" && t.value === word;
  }
  private expect(kind: Token["kind"], what: string): Token {
    const t = this.next();
    if (t.kind !== kind) throw this.syntax(t, what);
    return t;
  }
  /** `expected` is a token in quotes or `@value` / `@end` (translated message keys). */
  syntax(t: Token, expected: string): never {
    const found = t.kind === "eof" ? "@endOfInput" : `'${describe(t)}'`;
    throw badRequest(
      "syntax",
      { option: this.option, pos: t.pos, expected, found },
      this.option,
      "InvalidFilter",
    );
  }

  atEnd(): boolean {
    return this.peek().kind === "eof";
  }

  parseExpression(): Expr {
    return this.parseOr();
  }

  private parseOr(): Expr {
    let left = this.parseAnd();
    while (this.peekKeyword("or")) {
      this.next();
      const right = this.parseAnd();
      left = { kind: "logical", type: "Boolean", op: "or", left: this.bool(left), right: this.bool(right) };
    }
    return left;
  }

  private parseAnd(): Expr {
    let left = this.parseNot();
    while (this.peekKeyword("and")) {
      this.next();
      const right = this.parseNot();
      left = { kind: "logical", type: "Boolean", op: "and", left: this.bool(left), right: this.bool(right) };
    }
    return left;
  }

  private parseNot(): Expr {
    if (this.peekKeyword("not")) {
      this.next();
      return { kind: "not", type: "Boolean", operand: this.bool(this.parseNot()) };
    }
    return this.parseComparison();
  }

  private parseComparison(): Expr {
    const left = this.parsePrimary();
    const t = this.peek();
    if (t.kind === "ident" && COMPARISONS.has(t.value)) {
      this.next();
      const right = this.parsePrimary();
      checkComparable(left, right, t.value as ComparisonOp, this.option);
      return { kind: "compare", type: "Boolean", op: t.value as ComparisonOp, left, right };
    }
    if (t.kind === "ident" && t.value === "in") {
      this.next();
      this.expect("lparen", "'('");
      const list: Expr[] = [];
      do {
        const item = this.parsePrimary();
        checkComparable(left, item, "eq", this.option);
        list.push(item);
      } while (this.peek().kind === "comma" && this.next());
      this.expect("rparen", "')'");
      return { kind: "in", type: "Boolean", left, list };
    }
    if (t.kind === "ident" && ARITHMETIC.has(t.value)) {
      throw notImplemented("unsupportedOperator", { name: t.value, option: this.option }, this.option);
    }
    return left;
  }

  private parsePrimary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case "lparen": {
        const inner = this.parseExpression();
        this.expect("rparen", "')'");
        return inner;
      }
      case "string":
        return { kind: "literal", type: "String", value: t.value };
      case "number":
        return {
          kind: "literal",
          type: Number.isInteger(t.value) && !/[.eE]/.test(t.text) ? "Int64" : "Decimal",
          value: t.value,
        };
      case "date":
        return { kind: "literal", type: "Date", value: t.value };
      case "datetime":
        return { kind: "literal", type: "DateTimeOffset", value: Date.parse(t.value) };
      case "ident":
        return this.parseIdentifier(t);
      default:
        return this.syntax(t, "@value");
    }
  }

  private parseIdentifier(t: Extract<Token, { kind: "ident" }>): Expr {
    const word = t.value;
    if (this.peek().kind === "lparen") return this.parseCall(t);
    if (word === "true" || word === "false")
      return { kind: "literal", type: "Boolean", value: word === "true" };
    if (word === "null") return { kind: "literal", type: "Null", value: null };
    if (this.peek().kind === "string") {
      throw badRequest("typedLiteral", { word }, this.option, "InvalidFilter");
    }
    if (this.peek().kind === "slash") {
      throw notImplemented("unsupportedPath", { name: word, option: this.option }, this.option);
    }
    const type = this.props[word];
    if (type === undefined) throw unknownProperty(word, this.props, this.setName, this.option);
    return { kind: "property", type, name: word };
  }

  private parseCall(t: Extract<Token, { kind: "ident" }>): Expr {
    const name = t.value;
    const sig = FUNCTIONS[name];
    if (!sig) {
      if (KNOWN_UNSUPPORTED.has(name.toLowerCase())) {
        throw notImplemented("unsupportedFunction", { name, option: this.option }, this.option);
      }
      throw badRequest(
        "unknownFunction",
        { name, pos: t.pos, option: this.option },
        this.option,
        "InvalidFilter",
      );
    }
    this.expect("lparen", "'('");
    const args: Expr[] = [];
    if (this.peek().kind !== "rparen") {
      do {
        args.push(this.parseExpression());
      } while (this.peek().kind === "comma" && this.next());
    }
    this.expect("rparen", "')'");
    if (args.length !== sig.params.length) {
      throw badRequest(
        "argCount",
        { name, expected: sig.params.length, got: args.length },
        this.option,
        "InvalidFilter",
      );
    }
    args.forEach((arg, index) => {
      const allowed = sig.params[index] as EdmType[];
      if (arg.type !== "Null" && !allowed.includes(arg.type)) {
        throw badRequest(
          "argType",
          { index: index + 1, name, expected: allowed.join(" | "), got: arg.type },
          this.option,
          "InvalidFilter",
        );
      }
    });
    const type = typeof sig.returns === "function" ? sig.returns(args) : sig.returns;
    return { kind: "call", type, name, args };
  }

  private bool(e: Expr): Expr {
    if (e.type !== "Boolean" && e.type !== "Null") {
      throw badRequest("notBoolean", { option: this.option, got: e.type }, this.option, "InvalidFilter");
    }
    return e;
  }

  parseOrderBy(): OrderByItem[] {
    const items: OrderByItem[] = [];
    do {
      const expr = this.parseExpression();
      let descending = false;
      if (this.peekKeyword("desc")) {
        this.next();
        descending = true;
      } else if (this.peekKeyword("asc")) this.next();
      items.push({ expr, descending });
    } while (this.peek().kind === "comma" && this.next());
    return items;
  }

  finish(): void {
    const t = this.peek();
    if (t.kind !== "eof") this.syntax(t, "@end");
  }
}

function describe(t: Token): string {
  switch (t.kind) {
    case "string":
      return `'${t.value}'`;
    case "number":
      return t.text;
    case "date":
    case "datetime":
    case "ident":
      return t.value;
    case "lparen":
      return "(";
    case "rparen":
      return ")";
    case "comma":
      return ",";
    case "star":
      return "*";
    case "slash":
      return "/";
    case "colon":
      return ":";
    default:
      return "";
  }
}

function checkComparable(left: Expr, right: Expr, op: ComparisonOp, option: string): void {
  const a = left.type;
  const b = right.type;
  // Comparing with null is allowed for every operator; ordering comparisons with null yield false.
  if (a === "Null" || b === "Null") return;
  if (a === b) return;
  if (NUMERIC.has(a) && NUMERIC.has(b)) return;
  if (TEMPORAL.has(a) && TEMPORAL.has(b)) return;
  throw badRequest("compareTypes", { left: a, right: b, op, option }, option, "InvalidFilter");
}

/**
 * Parse and type-check a `$filter` expression against an entity type.
 * @example parseFilter("year(createdAt) eq 2026 and status in ('paid','refunded')", { createdAt: "DateTimeOffset", status: "String" })
 */
export function parseFilter(input: string, props: PropertyTypes, setName = ""): Expr {
  const parser = new Parser(tokenize(input, "$filter"), props, "$filter", setName);
  if (parser.atEnd()) throw badRequest("empty", { option: "$filter" }, "$filter", "InvalidFilter");
  const expr = parser.parseExpression();
  parser.finish();
  if (expr.type !== "Boolean" && expr.type !== "Null") {
    throw badRequest("notBoolean", { option: "$filter", got: expr.type }, "$filter", "InvalidFilter");
  }
  return expr;
}

/**
 * Parse `$orderby`: comma-separated expressions, each optionally followed by `asc` or `desc`.
 * @example parseOrderBy("tolower(eventName) asc, createdAt desc", props)
 */
export function parseOrderBy(input: string, props: PropertyTypes, setName = ""): OrderByItem[] {
  const parser = new Parser(tokenize(input, "$orderby"), props, "$orderby", setName);
  if (parser.atEnd()) throw badRequest("empty", { option: "$orderby" }, "$orderby");
  const items = parser.parseOrderBy();
  parser.finish();
  return items;
}

/**
 * Parse `$select`: `*` or a comma-separated list of property names.
 * @returns the selected names in request order, or null for all properties.
 */
export function parseSelect(input: string, props: PropertyTypes, setName = ""): string[] | null {
  const tokens = tokenize(input, "$select");
  const names: string[] = [];
  let all = false;
  let expectItem = true;
  for (const t of tokens) {
    if (t.kind === "eof") break;
    if (expectItem) {
      if (t.kind === "star") all = true;
      else if (t.kind === "ident") {
        if (props[t.value] === undefined) {
          throw unknownProperty(t.value, props, setName, "$select");
        }
        if (!names.includes(t.value)) names.push(t.value);
      } else
        throw badRequest(
          "syntax",
          { option: "$select", pos: t.pos, expected: "@value", found: `'${describe(t)}'` },
          "$select",
        );
      expectItem = false;
    } else {
      if (t.kind === "slash")
        throw notImplemented("unsupportedPath", { name: "", option: "$select" }, "$select");
      if (t.kind !== "comma")
        throw badRequest(
          "syntax",
          { option: "$select", pos: t.pos, expected: "','", found: `'${describe(t)}'` },
          "$select",
        );
      expectItem = true;
    }
  }
  if (expectItem) throw badRequest("empty", { option: "$select" }, "$select");
  return all ? null : names;
}

/** 400 `UnknownProperty`, with the closest property name as a detail when one is near. */
export function unknownProperty(
  name: string,
  props: PropertyTypes,
  setName: string,
  option: string,
): ODataError {
  const names = Object.keys(props);
  const lower = name.toLowerCase();
  const isSubsequence = (needle: string, hay: string) => {
    let i = 0;
    for (const ch of hay) if (ch === needle[i]) i++;
    return i === needle.length;
  };
  let best =
    names.find((n) => n.toLowerCase() === lower) ??
    names
      .filter(
        (n) => lower.length >= 3 && n[0]?.toLowerCase() === lower[0] && isSubsequence(lower, n.toLowerCase()),
      )
      .sort((a, b) => a.length - b.length)[0] ??
    null;
  if (!best) {
    let bestScore = Number.POSITIVE_INFINITY;
    for (const n of names) {
      const d = editDistance(lower, n.toLowerCase());
      if (d < bestScore) {
        bestScore = d;
        best = n;
      }
    }
    if (bestScore > Math.max(2, Math.floor(name.length / 3))) best = null;
  }
  const details = best
    ? [{ code: "UnknownProperty", key: "didYouMean" as const, params: { name: best }, target: name }]
    : [];
  return new ODataError(400, "UnknownProperty", "unknownProperty", { name, set: setName }, option, details);
}

/**
 * Parse one expression of a `$apply` transformation (`filter(…)`, `compute(… as X)`, `… with sum as X`), its
 * errors naming `$apply`; `boolean` requires a Boolean expression (a filter).
 * @example parseApplyExpression("hour(ScannedAt)", props, "Entrances", false) // {kind: "call", type: "Int32", …}
 */
export function parseApplyExpression(
  input: string,
  props: PropertyTypes,
  setName: string,
  boolean: boolean,
): Expr {
  const parser = new Parser(tokenize(input, "$apply"), props, "$apply", setName);
  if (parser.atEnd()) throw badRequest("empty", { option: "$apply" }, "$apply", "InvalidFilter");
  const expr = parser.parseExpression();
  parser.finish();
  if (boolean && expr.type !== "Boolean" && expr.type !== "Null")
    throw badRequest("notBoolean", { option: "$apply", got: expr.type }, "$apply", "InvalidFilter");
  return expr;
}
