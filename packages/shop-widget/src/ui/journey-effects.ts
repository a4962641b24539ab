import type { Step } from "../config";
import type { AnalyticsItem } from "../core/analytics";
import { moneyValue } from "../core/format";
import { purchaseParams } from "../core/purchase-analytics";
import { cartRef } from "../core/resume";
import { clearResume, purchasedSet } from "../core/resume-store";
import type { Cart, CartItem, Order } from "../core/types";
import type { Controller } from "./controller";
import type { JourneyContext } from "./journey-state";
import { cachedCart } from "./query-cache";

/**
 * What the journey's mutations share (loaded with the later steps): the cart in the query cache, analytics,
 * and the end of a purchase. Each helper gets the journey's context, never the component tree.
 */

export function cartAnalyticsItems(items: CartItem[]): AnalyticsItem[] {
  return items.map((item) => ({
    item_id: item.articleId,
    item_name: item.name,
    item_variant: item.slotId,
    price: moneyValue(item.unitPrice),
    quantity: item.quantity,
  }));
}

export function sumItems(items: AnalyticsItem[]): number {
  return Math.round(items.reduce((total, i) => total + (i.price ?? 0) * (i.quantity ?? 1), 0) * 100) / 100;
}

export const track = (ctx: JourneyContext, ...args: Parameters<Controller["tracker"]["track"]>) =>
  ctx.deps().controller.tracker.track(...args);

/** The buyer's cart as the cache holds it. */
export function currentCart(ctx: JourneyContext): Cart | undefined {
  const id = ctx.state.current.cartId;
  const { locale, controller } = ctx.deps();
  return id === undefined ? undefined : cachedCart(controller.queryClient, locale, id);
}

/** The buyer's cart is now `cartId` (seen at once by a write that follows in the same task). */
export function setCartId(ctx: JourneyContext, cartId: string): void {
  ctx.state.current = { ...ctx.state.current, cartId };
  ctx.setState((s) => ({ ...s, cartId }));
}

/** view_cart and begin_checkout as the buyer reaches the cart and the details. */
export function trackEntered(ctx: JourneyContext, step: Step): void {
  const cart = currentCart(ctx);
  if (cart === undefined) return;
  const params = {
    currency: cart.total.currency,
    value: moneyValue(cart.total),
    ...(cart.discounts[0] ? { coupon: cart.discounts[0].code } : {}),
    items: cartAnalyticsItems(cart.items),
  };
  if (step === "cart") track(ctx, "view_cart", params);
  if (step === "details") track(ctx, "begin_checkout", params);
}

/** The order exists: confirmation step, host told once per order (across reloads and double mounts). */
export function finish(ctx: JourneyContext, order: Order): void {
  const { controller } = ctx.deps();
  clearResume(controller.instanceId);
  cartRef(controller.instanceId, null);
  ctx.cartKey.current = undefined;
  ctx.checkoutKey.current = undefined;
  // Persisted per instance: a reload, a second mount or a StrictMode re-run never completes it twice.
  const completed = purchasedSet(controller.instanceId);
  if (!completed.has(order.id)) {
    track(ctx, "purchase", purchaseParams(order));
    completed.add(order.id);
    controller.notify("checkoutcomplete", order);
    controller.notify("cartchange", null);
  }
  const { cartId: _c, returning: _r, ...rest } = ctx.state.current;
  ctx.state.current = { ...rest, step: "confirmation", order };
  ctx.setState((s) => {
    const { cartId: _cart, error: _error, returning: _returning, ...others } = s;
    return { ...others, order, step: "confirmation", navigation: s.navigation + 1 };
  });
}
