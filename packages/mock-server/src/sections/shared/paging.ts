import type { OperationContext } from "../../core/types.ts";
import { detail } from "./details.ts";

/** A page in the REST list shape of DECISIONS.md: `{items, nextCursor}`. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

function encode(text: string): string {
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function decode(text: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text)) return null;
  try {
    return atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  } catch {
    return null;
  }
}

/** Where an item sits in its list's order: its sort key, then its id (the tie-break). */
export type Position = readonly [key: string | number, id: string];

/** How a list is ordered: each item's position, ascending (default) or descending on both key and id. */
export interface Order<T> {
  position: (item: T, index: number) => Position;
  descending?: boolean;
}

function compare(a: Position, b: Position): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  return a[1] === b[1] ? 0 : a[1] < b[1] ? -1 : 1;
}

/**
 * The items in position order: as given when they already are (the usual case, checked in one pass), else sorted
 * stably — so cursor positions and the page order always agree (e.g. seeded records sharing a time).
 */
function inOrder<T>(items: readonly T[], order: Order<T>, sign: number): readonly T[] {
  let previous: Position | undefined;
  let sorted = true;
  for (let i = 0; i < items.length && sorted; i++) {
    const position = order.position(items[i] as T, i);
    if (previous && sign * compare(previous, position) > 0) sorted = false;
    previous = position;
  }
  if (sorted) return items;
  return items
    .map((item, i) => ({ item, position: order.position(item, i) }))
    .sort((a, b) => sign * compare(a.position, b.position))
    .map((entry) => entry.item);
}

function readCursor(cursor: string): Position | null {
  const text = decode(cursor);
  if (!text?.startsWith("k:")) return null;
  try {
    const value: unknown = JSON.parse(text.slice(2));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      (typeof value[0] === "string" || typeof value[0] === "number") &&
      typeof value[1] === "string"
    )
      return [value[0], value[1]];
  } catch {}
  return null;
}

/**
 * Keyset cursor pagination over a list already in its final order (`order.position` must agree with it). The
 * cursor carries the last returned item's position — its sort key and id — not the item, so a page still follows
 * when that item was deleted (or evicted) meanwhile, and insertions elsewhere never repeat or skip items. `limit`
 * comes from the validated query (1–100, default 20). A cursor that is not ours is a 400 with pointer
 * `/query/cursor`.
 * @example paginate(ctx, contacts, { position: (c) => [c.createdAt, c.id], descending: true })
 */
export function paginate<T>(ctx: OperationContext, items: readonly T[], order: Order<T>): Page<T> {
  const rawLimit = ctx.query.limit;
  const limitText = Array.isArray(rawLimit) ? rawLimit[0] : rawLimit;
  const limit = limitText === undefined ? 20 : Math.min(100, Math.max(1, Number(limitText) || 20));
  const rawCursor = ctx.query.cursor;
  const cursor = Array.isArray(rawCursor) ? rawCursor[0] : rawCursor;
  const sign = order.descending ? -1 : 1;
  items = inOrder(items, order, sign);
  let start = 0;
  if (cursor !== undefined) {
    const after = readCursor(cursor);
    if (after === null) {
      ctx.problem("validation-error", undefined, {
        errors: [{ pointer: "/query/cursor", detail: detail(ctx, "badCursor") }],
      });
    }
    // The first item past the cursor's position (the item itself may be gone).
    start = items.findIndex((item, i) => sign * compare(order.position(item, i), after) > 0);
    if (start === -1) start = items.length;
  }
  const page = items.slice(start, start + limit);
  const lastIndex = start + page.length - 1;
  const last = page[page.length - 1];
  const nextCursor =
    start + limit < items.length && last !== undefined
      ? encode(`k:${JSON.stringify(order.position(last, lastIndex))}`)
      : null;
  return { items: page, nextCursor };
}

/** A single string query parameter (the first when repeated). */
export function queryParam(ctx: OperationContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}
