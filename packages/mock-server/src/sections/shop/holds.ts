/**
 * Seat availability and holds. Everything here is synchronous: the engine runs on one thread, so a
 * check-then-take on a slot can never interleave with another request — that is what rules out
 * overselling under concurrency. Holds expire lazily: every shop request first sweeps the queue.
 */

import { compact } from "../shared/fifo.ts";
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

/**
 * Expires the open carts whose hold window has passed: their seats and voucher use go back and the cart reads as
 * `expired` (every later change and the checkout answer `409 hold-expired`); `expired` is told each such cart.
 * Amortized O(1) per request.
 */
export function sweepHolds(state: ShopState, now: number, expired?: (cart: CartRecord) => void): void {
  const queue = state.holdQueue;
  while (state.holdQueueHead < queue.length) {
    const entry = queue[state.holdQueueHead];
    if (!entry || entry.expiresAt > now) break;
    state.holdQueueHead++;
    const cart = state.carts.get(entry.cartId);
    if (cart && cart.status === "open" && cart.holdExpiresAt !== null && cart.holdExpiresAt <= now) {
      // `holdExpiresAt` stays: when the seats were released.
      releaseCart(state, cart);
      cart.status = "expired";
      expired?.(cart);
    }
  }
  [state.holdQueue, state.holdQueueHead] = compact(queue, state.holdQueueHead);
  // Bounded: each change of a cart queues a new expiry, so a busy cart leaves stale entries behind. When the
  // queue outgrows the carts (twice the cap plus slack), keep only each live cart's current expiry: O(1) amortized.
  const live = state.holdQueue.length - state.holdQueueHead;
  if (live > 2 * (state.config.maxCarts ?? 10_000) + 1024) {
    state.holdQueue = state.holdQueue
      .slice(state.holdQueueHead)
      .filter((e) => state.carts.get(e.cartId)?.holdExpiresAt === e.expiresAt);
    state.holdQueueHead = 0;
  }
}
