/**
 * The one FIFO the sections keep their caps and lifetimes with (carts, evicted ids, holds, retention, orders,
 * payments, dropped ids, presence). It is plain JSON, so snapshots clone it: an array and `head`, the index of its
 * first live entry. Taking from the front moves `head`; `compact` cuts the consumed front off once it is the larger
 * half (and past `COMPACT_AFTER` entries), so pushing and taking stay amortized O(1) without shifting the array.
 */

/** Consumed entries a queue keeps before it is compacted. */
export const COMPACT_AFTER = 1024;

/** The queue and head to keep: the same ones, or the live part and 0 once the consumed front dominates. */
export function compact<T>(queue: T[], head: number): [T[], number] {
  return head > COMPACT_AFTER && head * 2 > queue.length ? [queue.slice(head), 0] : [queue, head];
}
