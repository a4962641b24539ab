/** `applyCartVoucher` and `removeCartVoucher`: a voucher code on an open cart (see `vouchers.ts`). */
import type { ContextOf, ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { assertOpen, findCart, load } from "./common.ts";
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
      ctx.text({
        "de-CH": `Es gibt keinen Gutscheincode ${code}.`,
        "fr-CH": `Le code promo ${code} n'existe pas.`,
        "it-CH": `Il codice buono ${code} non esiste.`,
        "en-GB": `There is no voucher code ${code}.`,
      }),
      { code },
    );
  }
  if (!isValidAt(voucher, now)) {
    ctx.problem(
      "voucher-expired",
      ctx.text({
        "de-CH": `Der Gutscheincode ${code} ist nicht mehr (oder noch nicht) gültig.`,
        "fr-CH": `Le code promo ${code} n'est plus (ou pas encore) valable.`,
        "it-CH": `Il codice buono ${code} non è più (o non ancora) valido.`,
        "en-GB": `The voucher code ${code} is no longer (or not yet) valid.`,
      }),
      { code },
    );
  }
  if (!appliesTo(state, voucher, cart)) {
    ctx.problem(
      "voucher-not-applicable",
      ctx.text({
        "de-CH": `Der Gutscheincode ${code} gilt für keinen Artikel in diesem Warenkorb.`,
        "fr-CH": `Le code promo ${code} ne s'applique à aucun article de ce panier.`,
        "it-CH": `Il codice buono ${code} non vale per nessun articolo di questo carrello.`,
        "en-GB": `The voucher code ${code} is not valid for any article in this cart.`,
      }),
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
      ctx.text({
        "de-CH": `Der Gutscheincode ${code} wurde so oft eingelöst, wie er darf.`,
        "fr-CH": `Le code promo ${code} a été utilisé autant de fois que permis.`,
        "it-CH": `Il codice buono ${code} è stato usato tutte le volte consentite.`,
        "en-GB": `The voucher code ${code} has been used as often as it may be.`,
      }),
      { code },
    );
  }
  cart.voucherCode = code;
  cart.updatedAt = now;
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
  }
  return { status: 200, body: cartView(state, cart, ctx.culture) };
}
