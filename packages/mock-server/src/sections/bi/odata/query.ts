import { badRequest, notImplemented } from "./errors.ts";
import { compareScalars, compileFilter, compileOrder, type Row, type Scalar, sortKeyOf } from "./evaluate.ts";
import { type OrderByItem, type PropertyTypes, parseFilter, parseOrderBy, parseSelect } from "./parser.ts";

/** System query options we implement. */
const SUPPORTED = new Set([
  "$filter",
  "$select",
  "$orderby",
  "$top",
  "$skip",
  "$count",
  "$skiptoken",
  "$format",
]);
/** Valid OData system query options we do not implement (→ 501). */
const UNSUPPORTED = new Set([
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

function single(query: Record<string, string | string[]>, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) {
    if (v.length > 1) throw badRequest("repeated", { option: name }, name);
    return v[0];
  }
  return v;
}

function nonNegativeInt(value: string, name: string): number {
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

  const filter = filterText === undefined ? null : compileFilter(parseFilter(filterText, props, setName));
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
  return { filter, orderBy, select, top, skip, count, skipToken, fingerprint };
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
 */
export function runQuery(all: readonly Row[], q: EntitySetQuery, key: string, pageSize: number): Page {
  const matching = q.filter ? all.filter(q.filter) : all.slice();
  const cmp = compileOrder(q.orderBy, key);
  matching.sort(cmp);
  const sortKey = sortKeyOf(q.orderBy, key);
  const total = matching.length;
  let start: number;
  let returned = 0;
  if (q.skipToken) {
    const after = q.skipToken.after;
    const directions = [...q.orderBy.map((o) => o.descending), false];
    start = lowerBoundAfter(matching, (row) => compareTuple(sortKey(row), after, directions));
    returned = q.skipToken.returned;
  } else {
    start = Math.min(q.skip, total);
  }
  const remaining = q.top === null ? Number.POSITIVE_INFINITY : Math.max(0, q.top - returned);
  const take = Math.min(pageSize, remaining);
  const rows = matching.slice(start, start + take).map((row) => project(row, q.select));
  const more = start + take < total && returned + take < (q.top ?? Number.POSITIVE_INFINITY);
  const last = matching[start + take - 1];
  const nextSkipToken =
    more && last ? encodeSkipToken({ after: sortKey(last), returned: returned + take }, q.fingerprint) : null;
  return { rows, count: q.count ? total : null, nextSkipToken };
}

function compareTuple(a: Scalar[], b: Scalar[], desc: boolean[]): number {
  for (let i = 0; i < a.length; i++) {
    const c = compareScalars(a[i] ?? null, b[i] ?? null);
    if (c !== 0) return desc[i] ? -c : c;
  }
  return 0;
}

/** First index whose row compares > 0 against the token (binary search over the sorted rows). */
function lowerBoundAfter(rows: Row[], cmp: (row: Row) => number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cmp(rows[mid] as Row) > 0) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function project(row: Row, select: string[] | null): Row {
  if (!select) return row;
  const out: Record<string, Scalar> = {};
  for (const name of select) out[name] = row[name] ?? null;
  return out;
}

function hash(text: string): string {
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
