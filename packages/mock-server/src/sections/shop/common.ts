import { msg } from "../../core/messages.ts";
import type { LocalizedText, OperationContext } from "../../core/types.ts";
import { cartCap, wasEvicted } from "./cart-cap.ts";
import { webhookCart } from "./events.ts";
import { releaseCart, sweepHolds } from "./holds.ts";
import { sweepOrders } from "./order-cap.ts";
import { sweepCarts } from "./retention.ts";
import { type CartRecord, type ShopState, shopSlice } from "./state.ts";

/** The shop state with expired holds released and long-abandoned carts dropped (write paths only). */
export function load(ctx: OperationContext): { state: ShopState; now: number } {
  const state = shopSlice(ctx.world);
  const now = ctx.clock.now();
  sweepHolds(state, now, (cart) => ctx.emit("cart.expired", { cart: webhookCart(state, cart) }));
  if (ctx.method !== "GET" && ctx.method !== "HEAD") {
    sweepCarts(state, now);
    sweepOrders(state, now);
  }
  return { state, now };
}

export function notFound(ctx: OperationContext, what: LocalizedText): never {
  return ctx.problem("not-found", ctx.text(what));
}

/** A cart the caller may see: its own client's carts; a session token only its own session's. */
export function findCart(
  ctx: OperationContext,
  state: ShopState,
  now: number,
  id = ctx.params.id ?? "",
): CartRecord {
  const cart = state.carts.get(id);
  const auth = ctx.auth;
  const visible =
    cart !== undefined &&
    (auth === null ||
      (cart.clientId === auth.clientId &&
        (auth.kind !== "session" || cart.sessionId === (auth.sessionId ?? null))));
  if (!cart && wasEvicted(state, id)) {
    const cap = cartCap(state);
    return notFound(ctx, msg("shop.common.the-cart-was-evicted-the-mock", { id, cap }));
  }
  if (!cart || !visible) {
    return notFound(ctx, msg("shop.common.there-is-no-cart", { id }));
  }
  if (cart.status === "open" && cart.updatedAt + state.config.cartTtlSeconds * 1000 <= now) {
    releaseCart(state, cart);
    cart.status = "expired";
    cart.holdExpiresAt = null;
    ctx.emit("cart.expired", { cart: webhookCart(state, cart) });
  }
  return cart;
}

/**
 * Throws the matching 409 unless the cart is open: every cart change and the checkout share it. A paid cart is
 * `conflict`; an expired one (its hold lapsed, or untouched for the cart TTL) is `hold-expired`, whose seats and
 * voucher use are already released: the buyer starts a new cart.
 */
export function assertOpen(ctx: OperationContext, cart: CartRecord): void {
  if (cart.status === "open") return;
  if (cart.status === "locked") {
    ctx.problem("cart-locked", undefined, { cartId: cart.id, paymentId: cart.paymentId });
  }
  if (cart.status === "completed") {
    ctx.problem("conflict", ctx.text(msg("shop.common.the-cart-is-already-paid")), {
      cartId: cart.id,
      orderId: cart.orderId,
    });
  }
  ctx.problem("hold-expired", ctx.text(msg("shop.common.the-cart-has-expired-create-a")), {
    cartId: cart.id,
  });
}

export function invalid(ctx: OperationContext, pointer: string, detail: string): never {
  return ctx.problem("unprocessable", detail, { errors: [{ pointer, detail }] });
}
