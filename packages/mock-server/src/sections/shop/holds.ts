/**
 * Seat availability and holds. Everything here is synchronous: the engine runs on one thread, so a
 * check-then-take on a slot can never interleave with another request — that is what rules out
 * overselling under concurrency. Holds expire lazily: every shop request first sweeps the queue.
 */
import { forgetCart } from "./cart-cap.ts";
import type { CartRecord, ItemRecord, ShopState, SlotRecord } from "./state.ts";
import { cartVoucher, releaseUse, takeUse } from "./vouchers.ts";

export function availableSeats(slot: SlotRecord): number {
  return Math.max(0, slot.capacity - slot.sold - slot.held);
}

/** Takes `quantity` seats of the slot for a hold; false when fewer are available (nothing taken). */
export function takeSeats(slot: SlotRecord, quantity: number): boolean {
  if (quantity <= 0) return true;
  if (availableSeats(slot) < quantity) return false;
  slot.held += quantity;
  return true;
}

export function releaseItem(state: ShopState, item: ItemRecord): void {
  const slot = state.slots[item.slotId];
  if (slot && item.held > 0) slot.held = Math.max(0, slot.held - item.held);
  item.held = 0;
}

/** Releases the cart's seats and its voucher use (a lapsed hold, an expired, evicted or dropped cart). */
export function releaseCart(state: ShopState, cart: CartRecord): void {
  for (const item of cart.items) releaseItem(state, item);
  releaseUse(state, cart);
}

/** Starts (or restarts) the cart's hold window. */
export function refreshHold(state: ShopState, cart: CartRecord, now: number): void {
  if (cart.items.length === 0) {
    cart.holdExpiresAt = null;
    return;
  }
  cart.holdExpiresAt = now + state.config.holdDurationSeconds * 1000;
  state.holdQueue.push({ cartId: cart.id, expiresAt: cart.holdExpiresAt });
}

/**
 * Tries to re-take seats for items whose hold lapsed, and the voucher's use if the code is still free; returns the
 * items it could not cover (whether the use came back is `cart.voucherHeld`).
 */
export function reacquire(state: ShopState, cart: CartRecord): ItemRecord[] {
  const voucher = cart.items.length > 0 ? cartVoucher(state, cart) : undefined;
  if (voucher) takeUse(voucher, cart);
  const missing: ItemRecord[] = [];
  for (const item of cart.items) {
    const slot = state.slots[item.slotId];
    const need = item.quantity - item.held;
    if (need <= 0) continue;
    if (slot && takeSeats(slot, need)) item.held += need;
    else missing.push(item);
  }
  return missing;
}

/** Releases the seats of open carts whose hold window has passed. Amortized O(1) per request. */
export function sweepHolds(state: ShopState, now: number): void {
  const queue = state.holdQueue;
  while (state.holdQueueHead < queue.length) {
    const entry = queue[state.holdQueueHead];
    if (!entry || entry.expiresAt > now) break;
    state.holdQueueHead++;
    const cart = state.carts[entry.cartId];
    if (cart && cart.status === "open" && cart.holdExpiresAt !== null && cart.holdExpiresAt <= now)
      releaseCart(state, cart);
  }
  if (state.holdQueueHead > 1024 && state.holdQueueHead * 2 > queue.length) {
    state.holdQueue = queue.slice(state.holdQueueHead);
    state.holdQueueHead = 0;
  }
  // Bounded: each change of a cart queues a new expiry, so a busy cart leaves stale entries behind. When the
  // queue outgrows the carts (twice the cap plus slack), keep only each live cart's current expiry: O(1) amortized.
  const live = state.holdQueue.length - state.holdQueueHead;
  if (live > 2 * (state.config.maxCarts ?? 10_000) + 1024) {
    state.holdQueue = state.holdQueue
      .slice(state.holdQueueHead)
      .filter((e) => state.carts[e.cartId]?.holdExpiresAt === e.expiresAt);
    state.holdQueueHead = 0;
  }
}

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
    const cart = state.carts[entry.cartId];
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
  if (head > 1024 && head * 2 > queue.length) {
    state.retentionQueue = queue.slice(head);
    head = 0;
  }
  // Bounded: entries of carts the cap evicted stay until due; when the queue outgrows the carts, drop them.
  const current = state.retentionQueue ?? queue;
  if (current.length - head > 2 * (state.config.maxCarts ?? 10_000) + 1024) {
    state.retentionQueue = current.slice(head).filter((e) => state.carts[e.cartId] !== undefined);
    head = 0;
  }
  state.retentionQueueHead = head;
}
