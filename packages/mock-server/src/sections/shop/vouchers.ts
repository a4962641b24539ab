/**
 * Voucher codes: the seeded codes, the discount a code gives a cart, and its limited uses. A use is held by a cart
 * like its seats (taken when the code is applied, given back wherever seats are released: a lapsed hold, an expired,
 * evicted or dropped cart) and redeemed with the order. Everything is synchronous, like `holds.ts`: the engine runs
 * one request at a time up to its first `await`, so check-and-take can never interleave and a code with N uses is
 * held or redeemed by at most N carts, however many apply it at once.
 */

import type { CartRecord, Currency, ItemRecord, ShopState } from "./state.ts";
import { type DiscountRecord, seedVouchers, type VoucherRecord, type VoucherSeed } from "./voucher-codes.ts";

export type { DiscountRecord, VoucherKind, VoucherRecord, VoucherSeed } from "./voucher-codes.ts";
export { normalizeCode, seedVouchers } from "./voucher-codes.ts";

/** The shop's codes (snapshots from before vouchers existed get the built-in list). */
export function vouchersOf(state: ShopState): Record<string, VoucherRecord> {
  state.vouchers ??= seedVouchers(undefined);
  return state.vouchers;
}

export function cartVoucher(state: ShopState, cart: CartRecord): VoucherRecord | undefined {
  return cart.voucherCode ? vouchersOf(state)[cart.voucherCode] : undefined;
}

export function isValidAt(voucher: VoucherSeed, now: number): boolean {
  if (voucher.validFrom && Date.parse(voucher.validFrom) > now) return false;
  if (voucher.validUntil && Date.parse(voucher.validUntil) < now) return false;
  return true;
}

export function usesLeft(voucher: VoucherRecord): number {
  return voucher.maxUses === undefined
    ? Number.POSITIVE_INFINITY
    : voucher.maxUses - voucher.redeemed - voucher.held;
}

function unitPrice(state: ShopState, item: ItemRecord, currency: Currency): number {
  return state.articles[item.articleId]?.price[currency] ?? 0;
}

/** The cart's items the code is valid for. */
export function qualifyingItems(state: ShopState, voucher: VoucherSeed, items: ItemRecord[]): ItemRecord[] {
  return items.filter((item) => {
    if (voucher.eventIds && !voucher.eventIds.includes(item.eventId)) return false;
    const slug = state.articles[item.articleId]?.slug ?? "";
    return !voucher.articleSlugs || voucher.articleSlugs.includes(slug);
  });
}

/** Whether the code can give this cart anything: a qualifying item, and an amount in the cart's currency. */
export function appliesTo(
  state: ShopState,
  voucher: VoucherSeed,
  cart: { items: ItemRecord[]; currency: Currency },
): boolean {
  if (voucher.kind === "fixed-amount" && voucher.amount?.[cart.currency] === undefined) return false;
  return qualifyingItems(state, voucher, cart.items).length > 0;
}

/** What the code takes off these items, in minor units (never more than the qualifying lines are worth). */
export function discountOf(
  state: ShopState,
  voucher: VoucherSeed,
  cart: { items: ItemRecord[]; currency: Currency },
): number {
  const items = qualifyingItems(state, voucher, cart.items);
  const worth = items.reduce((sum, i) => sum + unitPrice(state, i, cart.currency) * i.quantity, 0);
  if (items.length === 0) return 0;
  switch (voucher.kind) {
    case "percentage":
      return Math.min(worth, Math.round((worth * (voucher.percent ?? 0)) / 100));
    case "fixed-amount":
      return Math.min(worth, voucher.amount?.[cart.currency] ?? 0);
    case "free-ticket":
      return Math.min(...items.map((i) => unitPrice(state, i, cart.currency)));
  }
}

/** Takes one use for the cart unless it holds one; false when none is left (nothing taken). */
export function takeUse(voucher: VoucherRecord, cart: CartRecord): boolean {
  if (cart.voucherHeld) return true;
  if (usesLeft(voucher) <= 0) return false;
  voucher.held += 1;
  cart.voucherHeld = true;
  return true;
}

/** Gives the cart's held use back (the code stays on the cart; checkout takes a use again). */
export function releaseUse(state: ShopState, cart: CartRecord): void {
  if (!cart.voucherHeld) return;
  const voucher = cartVoucher(state, cart);
  if (voucher) voucher.held = Math.max(0, voucher.held - 1);
  cart.voucherHeld = false;
}

/** The paid order redeems the held use. */
export function redeemUse(state: ShopState, cart: CartRecord): void {
  const voucher = cartVoucher(state, cart);
  if (!voucher) return;
  if (cart.voucherHeld) voucher.held = Math.max(0, voucher.held - 1);
  voucher.redeemed += 1;
  cart.voucherHeld = false;
}

/** The cart's prices: the lines' sum, the discount lines and what the checkout charges. */
export function pricing(
  state: ShopState,
  cart: { items: ItemRecord[]; currency: Currency; voucherCode?: string | null },
): { subtotal: number; discounts: DiscountRecord[]; total: number } {
  let subtotal = 0;
  for (const item of cart.items) subtotal += unitPrice(state, item, cart.currency) * item.quantity;
  const voucher = cart.voucherCode ? vouchersOf(state)[cart.voucherCode] : undefined;
  if (!voucher) return { subtotal, discounts: [], total: subtotal };
  const amount = Math.min(subtotal, discountOf(state, voucher, cart));
  const line = { code: voucher.code, kind: voucher.kind, name: voucher.name, amount };
  return { subtotal, discounts: [line], total: subtotal - amount };
}
