/**
 * The cap on retained carts (bounded by design, besides their lifetime in `sweepCarts`): a session keeps at most
 * `config.maxCarts` carts; creating one more evicts the oldest first (creation order; a cart in payment — locked —
 * is passed over once). An evicted cart's id is remembered (as many ids as the cap, oldest forgotten first), so
 * reading it answers a 404 that says it was evicted and why, instead of a bare "no such cart".
 */

import { compact } from "../shared/fifo.ts";
import { IdSet } from "../shared/id-tables.ts";
import { releaseCart } from "./holds.ts";
import { dropForCart } from "./order-cap.ts";
import type { CartRecord, ShopState } from "./state.ts";

/** Default `shop.maxCarts`: ≈ 1.5 KB a cart, so ≈ 15 MB per session at most (see the README's memory budget). */
export const DEFAULT_MAX_CARTS = 10_000;

function maxCarts(state: ShopState): number {
  return state.config.maxCarts ?? DEFAULT_MAX_CARTS;
}

/** Registers a new cart, evicting the oldest ones beyond the cap. O(1) amortized. */
export function admitCart(state: ShopState, cart: CartRecord): void {
  state.cartOrder ??= [];
  state.cartOrderHead ??= 0;
  state.cartCount = (state.cartCount ?? state.carts.size - 1) + 1;
  state.cartOrder.push(cart.id);
  const cap = maxCarts(state);
  let passes = state.cartOrder.length - state.cartOrderHead;
  while (state.cartCount > cap && passes-- > 0) {
    const id = state.cartOrder[state.cartOrderHead++] as string;
    const victim = state.carts.get(id);
    if (!victim) continue;
    if (victim.status === "locked" && victim.id !== cart.id) {
      state.cartOrder.push(id);
      continue;
    }
    evict(state, victim);
  }
  [state.cartOrder, state.cartOrderHead] = compact(state.cartOrder, state.cartOrderHead);
}

/** Drops a cart (releasing its holds) and remembers its id; keeps the count in step. */
export function evict(state: ShopState, cart: CartRecord): void {
  releaseCart(state, cart);
  dropForCart(state, cart);
  state.carts.delete(cart.id);
  state.cartCount = Math.max(0, (state.cartCount ?? 1) - 1);
  state.evictedCarts ??= new IdSet();
  state.evictedOrder ??= [];
  state.evictedHead ??= 0;
  state.evictedCarts.add(cart.id);
  state.evictedOrder.push(cart.id);
  while (state.evictedOrder.length - state.evictedHead > maxCarts(state)) {
    const old = state.evictedOrder[state.evictedHead++] as string;
    state.evictedCarts.delete(old);
  }
  [state.evictedOrder, state.evictedHead] = compact(state.evictedOrder, state.evictedHead);
}

/** Removes a cart that lapsed (retention sweep): counted, but not remembered as evicted. */
export function forgetCart(state: ShopState, cart: CartRecord): void {
  releaseCart(state, cart);
  dropForCart(state, cart);
  state.carts.delete(cart.id);
  state.cartCount = Math.max(0, (state.cartCount ?? 1) - 1);
}

/** Whether this id belonged to a cart the cap evicted (and is still remembered). */
export function wasEvicted(state: ShopState, id: string): boolean {
  return state.evictedCarts?.has(id) === true;
}

export function cartCap(state: ShopState): number {
  return maxCarts(state);
}
