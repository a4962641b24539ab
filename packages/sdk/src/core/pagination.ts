/** Cursor pagination over list operations (`{ items, nextCursor }`, `limit` + `cursor` query parameters). */

import type { EntradaSuccess, OperationMethod } from "./types.ts";

/** The page shape of every cursor-paginated list in the contract. */
export interface CursorPage<Item> {
  items: Item[];
  nextCursor?: string | null;
}

export interface Paginator<Item> extends AsyncIterable<Item> {
  /** Iterates page by page (each with its response meta). */
  pages(): AsyncIterable<EntradaSuccess<CursorPage<Item>>>;
  /**
   * Collects items into an array, stopping after `max` items (default 10,000, so a runaway listing cannot
   * exhaust memory). Pass `Infinity` to read everything.
   */
  all(options?: { max?: number }): Promise<Item[]>;
}

type PageMethod<Init, Item> = OperationMethod<Init, CursorPage<Item>>;
type QueryOf<Init> = Init extends { params?: { query?: infer Q } } ? NonNullable<Q> : never;

interface QueryInit {
  params?: { query?: Record<string, unknown> } & Record<string, unknown>;
}

/**
 * Follows `nextCursor` until the last page. Errors reject the iteration with the typed `EntradaError`. The second
 * argument is the method's own init, or just `{ query }`.
 * @example
 * for await (const event of paginate(client.shop.listEvents, { query: { venueId } })) {
 *   console.log(event.name);
 * }
 * const first100 = await paginate(client.shop.listEvents).all({ max: 100 });
 */
export function paginate<Init, Item>(
  method: PageMethod<Init, Item>,
  init?: Init | { query: QueryOf<Init> },
): Paginator<Item> {
  const call = method.orThrow as (init: unknown) => Promise<EntradaSuccess<CursorPage<Item>>>;
  const given = (init ?? {}) as QueryInit & { query?: Record<string, unknown> };
  const base: QueryInit =
    "query" in given && !("params" in given) ? { params: { query: given.query } } : given;

  async function* pages(): AsyncGenerator<EntradaSuccess<CursorPage<Item>>> {
    let cursor: string | undefined;
    const seen = new Set<string>();
    for (;;) {
      const query = { ...base.params?.query, ...(cursor === undefined ? {} : { cursor }) };
      const page = await call({ ...base, params: { ...base.params, query } });
      yield page;
      const next = page.data.nextCursor;
      if (next == null || next === "") return;
      // A server that hands out the same cursor twice would loop forever; stop instead.
      if (seen.has(next)) throw new Error(`paginate: the server repeated cursor ${JSON.stringify(next)}`);
      seen.add(next);
      cursor = next;
    }
  }

  async function* items(): AsyncGenerator<Item> {
    for await (const page of pages()) yield* page.data.items;
  }

  return {
    [Symbol.asyncIterator]: () => items(),
    pages,
    async all(options = {}) {
      const max = options.max ?? 10_000;
      const out: Item[] = [];
      if (max <= 0) return out;
      for await (const item of items()) {
        out.push(item);
        if (out.length >= max) break;
      }
      return out;
    },
  };
}
