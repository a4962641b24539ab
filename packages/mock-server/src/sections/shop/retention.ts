/**
 * The lifetime of carts: every created cart enters the retention queue once; abandoned carts (never checked out)
 * are dropped with their holds once their time is up. The cap on their number is `cart-cap.ts`.
 */

import { compact } from "../shared/fifo.ts";
import { forgetCart } from "./cart-cap.ts";
import type { CartRecord, ShopState } from "./state.ts";

/** Most retention entries one request looks at, so no single request pays for a backlog (O(1) per request). */
const RETENTION_BUDGET = 64;

function retentionMs(state: ShopState): number {
  // Snapshots from before the option existed carry no cartRetentionSeconds: keep the default.
  return (state.config.cartTtlSeconds + (state.config.cartRetentionSeconds ?? 86_400)) * 1000;
}

/** Puts a new cart on the retention queue (called once per created cart). */
export function trackCart(state: ShopState, cart: CartRecord): void {
  state.retentionQueue ??= [];
  state.retentionQueue.push({ cartId: cart.id, dueAt: cart.updatedAt + retentionMs(state) });
}

/**
 * Bounded retention: drops abandoned carts (open or expired, never checked out) and releases their holds once
 * `cartTtlSeconds + cartRetentionSeconds` passed since their last change on the mock clock. Completed carts stay
 * (their orders refer to them); locked ones are looked at again later (a failed payment unlocks them). Each
 * created cart enters the queue once and each look either settles it or pushes it back with a later due time,
 * and a request looks at most at `RETENTION_BUDGET` entries: amortized and worst-case O(1) per request.
 */
export function sweepCarts(state: ShopState, now: number): void {
  const queue = state.retentionQueue;
  if (!queue) return;
  let head = state.retentionQueueHead ?? 0;
  const window = retentionMs(state);
  for (let budget = RETENTION_BUDGET; budget > 0 && head < queue.length; budget--) {
    const entry = queue[head];
    if (!entry || entry.dueAt > now) break;
    head++;
    const cart = state.carts.get(entry.cartId);
    if (!cart || cart.status === "completed") continue;
    if (cart.status === "locked") {
      queue.push({ cartId: cart.id, dueAt: now + window });
      continue;
    }
    const due = cart.updatedAt + window;
    if (due > now) {
      queue.push({ cartId: cart.id, dueAt: due });
      continue;
    }
    forgetCart(state, cart);
  }
  [state.retentionQueue, head] = compact(queue, head);
  // Bounded: entries of carts the cap evicted stay until due; when the queue outgrows the carts, drop them.
  const current = state.retentionQueue ?? queue;
  if (current.length - head > 2 * (state.config.maxCarts ?? 10_000) + 1024) {
    state.retentionQueue = current.slice(head).filter((e) => state.carts.has(e.cartId));
    head = 0;
  }
  state.retentionQueueHead = head;
}
