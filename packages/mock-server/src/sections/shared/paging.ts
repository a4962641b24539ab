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

/**
 * Cursor pagination over a list already in its final order, by item id (keyset: the cursor names the last id
 * returned, so deletions and insertions elsewhere never repeat or skip items). `limit` comes from the validated
 * query (1–100, default 20). A cursor that is not ours, or whose item is gone, is a 400 with pointer `/query/cursor`.
 * @example paginate(ctx, gates, (g) => g.id)
 */
export function paginate<T>(ctx: OperationContext, items: readonly T[], idOf: (item: T) => string): Page<T> {
  const rawLimit = ctx.query.limit;
  const limitText = Array.isArray(rawLimit) ? rawLimit[0] : rawLimit;
  const limit = limitText === undefined ? 20 : Math.min(100, Math.max(1, Number(limitText) || 20));
  const rawCursor = ctx.query.cursor;
  const cursor = Array.isArray(rawCursor) ? rawCursor[0] : rawCursor;
  let start = 0;
  if (cursor !== undefined) {
    const decoded = decode(cursor);
    const after = decoded?.startsWith("after:") ? decoded.slice(6) : null;
    const index = after === null ? -1 : items.findIndex((item) => idOf(item) === after);
    if (index < 0) {
      ctx.problem("validation-error", undefined, {
        errors: [{ pointer: "/query/cursor", detail: detail(ctx, "badCursor") }],
      });
    }
    start = index + 1;
  }
  const page = items.slice(start, start + limit);
  const last = page[page.length - 1];
  const nextCursor =
    start + limit < items.length && last !== undefined ? encode(`after:${idOf(last)}`) : null;
  return { items: page, nextCursor };
}

/** A single string query parameter (the first when repeated). */
export function queryParam(ctx: OperationContext, name: string): string | undefined {
  const v = ctx.query[name];
  return Array.isArray(v) ? v[0] : v;
}
