import { badRequest, notImplemented } from "./errors.ts";
import { compareScalars, compileFilter, compileOrder, type Row, type Scalar, sortKeyOf } from "./evaluate.ts";
import {
  type Expr,
  type OrderByItem,
  type PropertyTypes,
  parseFilter,
  parseOrderBy,
  parseSelect,
} from "./parser.ts";

/** System query options we implement. */
export const SUPPORTED = new Set([
  "$filter",
  "$select",
  "$orderby",
  "$top",
  "$skip",
  "$count",
  "$skiptoken",
  "$format",
]);
/** Valid OData system query options we do not implement (→ 501; `$apply` only with `apply-query.ts`). */
export const UNSUPPORTED = new Set([
  "$expand",
  "$search",
  "$apply",
  "$compute",
  "$levels",
  "$index",
  "$schemaversion",
  "$deltatoken",
  "$id",
]);

export interface EntitySetQuery {
  filter: ((row: Row) => boolean) | null;
  /** The parsed `$filter` (for query plans that answer it from an index). */
  filterExpr: Expr | null;
  orderBy: OrderByItem[];
  select: string[] | null;
  top: number | null;
  skip: number;
  count: boolean;
  skipToken: SkipToken | null;
  /** Fingerprint of the options that define the result set, bound into the skiptoken. */
  fingerprint: string;
}

interface SkipToken {
  /** Sort key of the last row already returned. */
  after: Scalar[];
  /** Rows already returned (for $top). */
  returned: number;
}

/** The one value of a query option (a repeated option is a 400). */
export function single(query: Record<string, string | string[]>, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw badRequest("repeated", { option: name }, name);
    return v[0];
  }
  return v;
}

/** A `$top`/`$skip` value (a 400 naming the option otherwise). */
export function nonNegativeInt(value: string, name: string): number {
  if (!/^\d{1,9}$/.test(value)) throw badRequest("notNonNegativeInt", { option: name, value }, name);
  return Number(value);
}

/**
 * Parse the system query options of a collection request against an entity type.
 * Unknown `$`-options are 400, known but unimplemented ones 501; custom options (no `$`) are ignored.
 */
export function parseEntitySetQuery(
  query: Record<string, string | string[]>,
  props: PropertyTypes,
  key: string,
  setName = "",
): EntitySetQuery {
  for (const name of Object.keys(query)) {
    if (!name.startsWith("$")) continue;
    if (UNSUPPORTED.has(name)) throw notImplemented("unsupportedOption", { option: name }, name);
    if (!SUPPORTED.has(name)) throw badRequest("unknownOption", { option: name }, name);
  }
  const format = single(query, "$format");
  if (format !== undefined && !/^(json|application\/json)(;.*)?$/i.test(format)) {
    throw notImplemented("unsupportedFormat", { value: format }, "$format");
  }
  const filterText = single(query, "$filter");
  const orderText = single(query, "$orderby");
  const selectText = single(query, "$select");
  const topText = single(query, "$top");
  const skipText = single(query, "$skip");
  const countText = single(query, "$count");
  const tokenText = single(query, "$skiptoken");

  const filterExpr = filterText === undefined ? null : parseFilter(filterText, props, setName);
  const filter = filterExpr === null ? null : compileFilter(filterExpr);
  const orderBy = orderText === undefined ? [] : parseOrderBy(orderText, props, setName);
  const select = selectText === undefined ? null : parseSelect(selectText, props, setName);
  const top = topText === undefined ? null : nonNegativeInt(topText, "$top");
  const skip = skipText === undefined ? 0 : nonNegativeInt(skipText, "$skip");
  let count = false;
  if (countText !== undefined) {
    if (countText !== "true" && countText !== "false")
      throw badRequest("countValue", { value: countText }, "$count");
    count = countText === "true";
  }
  const fingerprint = hash(
    [filterText, orderText, topText, skipText, key].map((v) => v ?? "\u0000").join("\u0001"),
  );
  const skipToken = tokenText === undefined ? null : decodeSkipToken(tokenText, fingerprint);
  return { filter, filterExpr, orderBy, select, top, skip, count, skipToken, fingerprint };
}

export interface Page {
  rows: Row[];
  /** Total matching rows (before $top/$skip), when `$count=true`. */
  count: number | null;
  /** Opaque token for the next page, or null on the last page. */
  nextSkipToken: string | null;
}

/**
 * Apply filter, order, skip/top and server-driven paging. Resuming with a skiptoken continues strictly after
 * the last returned sort key (keyset paging), so rows inserted meanwhile do not shift or repeat pages.
 *
 * One pass over `all`, keeping only the rows the page can still need (`$skip` + page size, the smallest in sort
 * order): a million-row source is filtered and paged without holding it. Query plans that an index answers run in
 * `feed-query.ts`; they page the same way (same rows, order and skiptokens: `pageOf`).
 */
export function runQuery(all: Iterable<Row>, q: EntitySetQuery, key: string, pageSize: number): Page {
  const cmp = compileOrder(q.orderBy, key);
  const after = q.skipToken ? afterToken(q, key) : null;
  const take = pageTake(q, pageSize);
  const skip = after ? 0 : q.skip;
  const best = new Smallest(cmp, skip + take);
  let total = 0;
  let before = 0;
  for (const row of all) {
    if (q.filter && !q.filter(row)) continue;
    total++;
    if (after && !after(row)) before++;
    else best.offer(row);
  }
  const start = after ? before : Math.min(q.skip, total);
  return pageOf(best.sorted().slice(skip, skip + take), q, key, { start, total, take });
}

/** Rows a page takes: the page size, less what `$top` has left after the pages already returned. */
export function pageTake(q: EntitySetQuery, pageSize: number): number {
  const returned = q.skipToken?.returned ?? 0;
  const remaining = q.top === null ? Number.POSITIVE_INFINITY : Math.max(0, q.top - returned);
  return Math.min(pageSize, remaining);
}

/** Whether a row comes strictly after the skiptoken's position in the query's order. */
export function afterToken(q: EntitySetQuery, key: string): (row: Row) => boolean {
  const token = q.skipToken;
  if (!token) return () => true;
  const sortKey = sortKeyOf(q.orderBy, key);
  const directions = [...q.orderBy.map((o) => o.descending), false];
  return (row) => compareTuple(sortKey(row), token.after, directions) > 0;
}

/**
 * The page of a query: `rows` are the matching rows from position `start` (of `total` matching rows) on, in
 * order, at most `take` of them. The next skiptoken carries the sort key of the last row and the rows returned.
 */
export function pageOf(
  rows: Row[],
  q: EntitySetQuery,
  key: string,
  at: { start: number; total: number; take: number },
): Page {
  const returned = q.skipToken?.returned ?? 0;
  const { start, total, take } = at;
  const more = start + take < total && returned + take < (q.top ?? Number.POSITIVE_INFINITY);
  const last = rows[take - 1];
  const nextSkipToken =
    more && last
      ? encodeSkipToken({ after: sortKeyOf(q.orderBy, key)(last), returned: returned + take }, q.fingerprint)
      : null;
  return { rows: rows.map((row) => project(row, q.select)), count: q.count ? total : null, nextSkipToken };
}

/**
 * The `limit` smallest rows offered, in order. Rows go to a buffer that is cut back to `limit` whenever it holds
 * twice that, and rows not smaller than the largest kept one are not buffered at all: O(n log limit), O(limit).
 */
class Smallest {
  #rows: Row[] = [];
  #worst: Row | null = null;
  constructor(
    private readonly cmp: (a: Row, b: Row) => number,
    private readonly limit: number,
  ) {}
  offer(row: Row): void {
    if (this.limit === 0) return;
    if (this.#worst && this.cmp(row, this.#worst) >= 0) return;
    this.#rows.push(row);
    if (this.#rows.length >= 2 * this.limit + 64) this.#cut();
  }
  #cut(): void {
    this.#rows.sort(this.cmp);
    if (this.#rows.length > this.limit) this.#rows.length = this.limit;
    if (this.#rows.length === this.limit) this.#worst = this.#rows[this.limit - 1] as Row;
  }
  sorted(): Row[] {
    this.#cut();
    return this.#rows;
  }
}

export function compareTuple(a: Scalar[], b: Scalar[], desc: boolean[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareScalars(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return desc[i] ? -c : c;
  }
  return 0;
}

/** The row with only the `$select`ed properties (all when none). */
export function project(row: Row, select: string[] | null): Row {
  if (!select) return row;
  const out: Record<string, Scalar> = {};
  for (const name of select) out[name] = row[name] ?? null;
  return out;
}

/** FNV-1a of a text, base 36: the fingerprint a skiptoken carries of its query. */
export function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}

function encodeSkipToken(token: SkipToken, fingerprint: string): string {
  return base64UrlEncode(JSON.stringify({ a: token.after, n: token.returned, f: fingerprint }));
}

function decodeSkipToken(text: string, fingerprint: string): SkipToken {
  const invalid = () => badRequest("skipTokenInvalid", {}, "$skiptoken", "InvalidSkipToken");
  let parsed: unknown;
  try {
    parsed = JSON.parse(base64UrlDecode(text));
  } catch {
    throw invalid();
  }
  const p = parsed as { a?: unknown; n?: unknown; f?: unknown };
  if (
    !Array.isArray(p.a) ||
    typeof p.n !== "number" ||
    !Number.isInteger(p.n) ||
    p.n < 0 ||
    typeof p.f !== "string"
  ) {
    throw invalid();
  }
  if (p.f !== fingerprint) throw badRequest("skipTokenMismatch", {}, "$skiptoken", "InvalidSkipToken");
  return { after: p.a as Scalar[], returned: p.n };
}

function base64UrlEncode(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function base64UrlDecode(text: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
}
