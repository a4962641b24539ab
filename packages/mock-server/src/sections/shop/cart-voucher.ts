/** `applyCartVoucher` and `removeCartVoucher`: a voucher code on an open cart (see `vouchers.ts`). */
import { msg } from "../../core/messages.ts";
import type { ContextOf, ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { assertOpen, findCart, load } from "./common.ts";
import { refreshHold } from "./holds.ts";
import type { CartRecord, ShopState } from "./state.ts";
import { cartView } from "./views.ts";
import {
  appliesTo,
  isValidAt,
  normalizeCode,
  releaseUse,
  takeUse,
  type VoucherRecord,
  vouchersOf,
} from "./vouchers.ts";

/** The code, or the problem that refuses it; the cart is not touched before every check passed. */
function acceptable(ctx: OperationContext, state: ShopState, cart: CartRecord, code: string, now: number) {
  const voucher: VoucherRecord | undefined = vouchersOf(state)[code];
  if (!voucher) {
    return ctx.problem(
      "voucher-unknown",
      ctx.text(msg("shop.cart-voucher.there-is-no-voucher-code", { code })),
      { code },
    );
  }
  if (!isValidAt(voucher, now)) {
    ctx.problem(
      "voucher-expired",
      ctx.text(msg("shop.cart-voucher.the-voucher-code-is-no-longer", { code })),
      { code },
    );
  }
  if (!appliesTo(state, voucher, cart)) {
    ctx.problem(
      "voucher-not-applicable",
      ctx.text(msg("shop.cart-voucher.the-voucher-code-is-not-valid", { code })),
      { code },
    );
  }
  return voucher;
}

export function applyCartVoucher(ctx: ContextOf<"applyCartVoucher">): ResultOf<"applyCartVoucher"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const code = normalizeCode(ctx.body.code);
  // The code the cart already holds: nothing changes, no second use is taken.
  if (cart.voucherCode === code && cart.voucherHeld)
    return { status: 200, body: cartView(state, cart, ctx.culture) };
  const voucher = acceptable(ctx, state, cart, code, now);
  const previous = cart.voucherCode === code ? undefined : cart.voucherCode;
  if (previous) releaseUse(state, cart);
  if (!takeUse(voucher, cart)) {
    // Refused: the cart keeps the code it had (and takes its use again; it was just released, so it is free).
    if (previous) {
      const before = vouchersOf(state)[previous];
      if (before) takeUse(before, cart);
    }
    ctx.problem(
      "voucher-used-up",
      ctx.text(msg("shop.cart-voucher.the-voucher-code-has-been-used", { code })),
      { code },
    );
  }
  cart.voucherCode = code;
  cart.updatedAt = now;
  refreshHold(state, cart, now);
  return { status: 200, body: cartView(state, cart, ctx.culture) };
}

export function removeCartVoucher(ctx: ContextOf<"removeCartVoucher">): ResultOf<"removeCartVoucher"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  if (cart.voucherCode) {
    releaseUse(state, cart);
    cart.voucherCode = null;
    cart.updatedAt = now;
    refreshHold(state, cart, now);
  }
  return { status: 200, body: cartView(state, cart, ctx.culture) };
}
