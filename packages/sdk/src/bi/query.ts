import { filterBuilder, ODataFilter, type ODataFilterBuilder } from "./filter.ts";
import { type BiEntitySet, type BiProperty, type BiRow, isEntitySet, propertyKind } from "./metadata.ts";

interface QueryState {
  filters: readonly ODataFilter[];
  select: readonly string[] | undefined;
  orderBy: readonly string[];
  top: number | undefined;
  skip: number | undefined;
  count: boolean;
}

const nonNegativeInteger = (name: string, n: number): number => {
  if (!Number.isSafeInteger(n) || n < 0)
    throw new TypeError(`${name} must be a non-negative integer, got ${n}`);
  return n;
};

/**
 * An immutable OData query on one BI dataset; every method returns a new query. `K` is the selected properties,
 * so rows are typed `Pick<BiRow<S>, K>`.
 * @example
 * const q = odata("Tickets")
 *   .filter((f) => f.and(f.eq("Status", "valid"), f.gt("IssuedAt", new Date("2025-01-01"))))
 *   .select("TicketId", "EventId")
 *   .orderBy("IssuedAt", "desc")
 *   .top(100)
 *   .count();
 * q.toString(); // "$filter=Status%20eq%20'valid'%20and%20IssuedAt%20gt%202025-01-01T00%3A00%3A00Z&..."
 */
export class ODataQuery<S extends BiEntitySet, K extends BiProperty<S> = BiProperty<S>> {
  /** @internal type-only marker of the row shape. */
  declare readonly __row?: Pick<BiRow<S>, K>;
  readonly entitySet: S;
  readonly #state: QueryState;

  constructor(entitySet: S, state?: QueryState) {
    if (!isEntitySet(entitySet)) throw new TypeError(`Unknown BI dataset "${String(entitySet)}"`);
    this.entitySet = entitySet;
    this.#state = state ?? {
      filters: [],
      select: undefined,
      orderBy: [],
      top: undefined,
      skip: undefined,
      count: false,
    };
  }

  #with(patch: Partial<QueryState>): this {
    return new ODataQuery(this.entitySet, { ...this.#state, ...patch }) as this;
  }

  /**
   * Adds a `$filter` (several calls are joined with `and`). Pass a callback for typed, escaped expressions, or a
   * raw OData string that is sent as is.
   */
  filter(filter: string | ODataFilter | ((f: ODataFilterBuilder<S>) => ODataFilter)): this {
    const built =
      typeof filter === "function"
        ? filter(filterBuilder(this.entitySet))
        : typeof filter === "string"
          ? new ODataFilter(filter, "or") // raw text: parenthesised when joined, whatever it holds
          : filter;
    if (!(built instanceof ODataFilter))
      throw new TypeError("filter() callback must return a filter expression");
    return this.#with({ filters: [...this.#state.filters, built] });
  }

  /** `$select`: only these properties are returned (and become the CSV columns, in this order). */
  select<P extends BiProperty<S>>(...properties: P[]): ODataQuery<S, P> {
    if (!properties.length) throw new TypeError("select() needs at least one property");
    for (const p of properties) propertyKind(this.entitySet, p);
    return new ODataQuery(this.entitySet, { ...this.#state, select: [...new Set(properties)] }) as ODataQuery<
      S,
      P
    >;
  }

  /** Adds a `$orderby` key; call again for secondary keys. */
  orderBy(property: BiProperty<S>, direction: "asc" | "desc" = "asc"): this {
    propertyKind(this.entitySet, property);
    if (direction !== "asc" && direction !== "desc")
      throw new TypeError(`Invalid sort direction "${direction}"`);
    return this.#with({
      orderBy: [...this.#state.orderBy, direction === "desc" ? `${property} desc` : property],
    });
  }

  /** `$top`: at most this many rows in total (across all pages). */
  top(n: number): this {
    return this.#with({ top: nonNegativeInteger("top", n) });
  }

  /** `$skip`. */
  skip(n: number): this {
    return this.#with({ skip: nonNegativeInteger("skip", n) });
  }

  /** `$count=true`: the first page carries the total as `@odata.count` (progress uses it). */
  count(enabled = true): this {
    return this.#with({ count: enabled });
  }

  /** The selected properties, if `select()` was used. */
  get selected(): readonly K[] | undefined {
    return this.#state.select as readonly K[] | undefined;
  }

  /** The system query options, unencoded, in a stable order. */
  params(): Record<string, string> {
    const s = this.#state;
    const out: Record<string, string> = {};
    if (s.filters.length) {
      out.$filter =
        s.filters.length === 1
          ? (s.filters[0] as ODataFilter).text
          : s.filters.map((f) => (f.op === "or" ? `(${f.text})` : f.text)).join(" and ");
    }
    if (s.select) out.$select = s.select.join(",");
    if (s.orderBy.length) out.$orderby = s.orderBy.join(",");
    if (s.top !== undefined) out.$top = String(s.top);
    if (s.skip !== undefined) out.$skip = String(s.skip);
    if (s.count) out.$count = "true";
    return out;
  }

  /** The query string (without `?`), percent-encoded (spaces as `%20`, never `+`). */
  toString(): string {
    return Object.entries(this.params())
      .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
      .join("&");
  }

  /** The dataset's URL under the feed root, e.g. `https://api.example/bi/v1/odata`. */
  url(feedRoot: string | URL): URL {
    const root = String(feedRoot).replace(/\/+$/, "");
    const query = this.toString();
    return new URL(`${root}/${this.entitySet}${query ? `?${query}` : ""}`);
  }
}

/** Starts a query on a BI dataset. */
export function odata<S extends BiEntitySet>(entitySet: S): ODataQuery<S> {
  return new ODataQuery(entitySet);
}
