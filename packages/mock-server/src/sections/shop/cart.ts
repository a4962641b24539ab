import { parsedTime } from "../../core/iso-time.ts";
import { msg } from "../../core/messages.ts";
import type { ContextOf, ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { admitCart } from "./cart-cap.ts";
import { assertOpen, findCart, invalid, load } from "./common.ts";
import { webhookCart, webhookItem } from "./events.ts";
import { availableSeats, reacquire, refreshHold, releaseItem, takeSeats } from "./holds.ts";
import { trackCart } from "./retention.ts";
import type { ArticleRecord, CartRecord, ItemRecord, ShopState } from "./state.ts";
import { cartTotal, cartView } from "./views.ts";
import { releaseUse } from "./vouchers.ts";

/** A change of the cart: its hold runs from now again (the seats, and the voucher's use with them). */
function touch(state: ShopState, cart: CartRecord, now: number): void {
  cart.updatedAt = now;
  refreshHold(state, cart, now);
}

function ok(ctx: OperationContext, state: ShopState, cart: CartRecord) {
  return { status: 200 as const, body: cartView(state, cart, ctx.culture) };
}

function created(ctx: OperationContext, state: ShopState, cart: CartRecord) {
  return { status: 201 as const, body: cartView(state, cart, ctx.culture) };
}

export function createCart(ctx: ContextOf<"createCart">): ResultOf<"createCart"> {
  const { state, now } = load(ctx);
  const body = ctx.body ?? {};
  const currency = body.currency ?? state.config.defaultCurrency;
  if (!state.config.currencies.includes(currency)) {
    invalid(ctx, "/body/currency", ctx.text(msg("shop.cart.the-currency-is-not-configured", { currency })));
  }
  const auth = ctx.auth;
  const cart: CartRecord = {
    id: ctx.id("crt"),
    status: "open",
    currency,
    items: [],
    customer: null,
    paymentProviderId: null,
    holdExpiresAt: null,
    orderId: null,
    clientId: auth?.clientId ?? "anonymous",
    sessionId: auth?.kind === "session" ? (auth.sessionId ?? null) : null,
    paymentId: null,
    createdAt: now,
    updatedAt: now,
  };
  state.carts.set(cart.id, cart);
  trackCart(state, cart);
  admitCart(state, cart);
  ctx.emit("cart.created", { cart: webhookCart(state, cart) });
  return { ...created(ctx, state, cart), headers: { location: `/shop/v1/cart/${cart.id}` } };
}

export function getCart(ctx: ContextOf<"getCart">): ResultOf<"getCart"> {
  const { state, now } = load(ctx);
  return ok(ctx, state, findCart(ctx, state, now));
}

function capacityProblem(ctx: OperationContext, slotId: string, available: number, requested: number): never {
  if (available === 0) {
    return ctx.problem("sold-out", undefined, { slotId, available: 0, requested });
  }
  return ctx.problem(
    "insufficient-capacity",
    ctx.text(msg("shop.cart.only-seats-are-available-were-requested", { available, requested })),
    { slotId, available, requested },
  );
}

function checkMaxPerOrder(
  ctx: OperationContext,
  article: ArticleRecord,
  total: number,
  pointer: string,
): void {
  if (total > article.maxPerOrder) {
    invalid(
      ctx,
      pointer,
      ctx.text(msg("shop.cart.at-most-per-order-for-this", { maxPerOrder: article.maxPerOrder })),
    );
  }
}

export function addCartItem(ctx: ContextOf<"addCartItem">): ResultOf<"addCartItem"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const body = ctx.body;
  const byId = "articleId" in body ? body.articleId : undefined;
  const bySlug = "articleSlug" in body ? body.articleSlug : undefined;
  const slot = state.slots[body.slotId];
  if (!slot) {
    invalid(ctx, "/body/slotId", ctx.text(msg("shop.cart.there-is-no-slot", { slotId: body.slotId })));
  }
  let article: ArticleRecord | undefined;
  if (byId !== undefined) {
    article = state.articles[byId];
    if (!article || article.eventId !== slot.eventId) {
      invalid(ctx, "/body/articleId", ctx.text(msg("shop.cart.the-article-does-not-belong-to", { byId })));
    }
  } else {
    const event = state.events[slot.eventId];
    for (const assortmentId of event?.assortmentIds ?? []) {
      for (const id of state.assortments[assortmentId]?.articleIds ?? []) {
        if (state.articles[id]?.slug === bySlug) article = state.articles[id];
      }
    }
    if (!article) {
      invalid(
        ctx,
        "/body/articleSlug",
        ctx.text(msg("shop.cart.this-slot-s-event-has-no", { bySlug: String(bySlug) })),
      );
    }
  }
  if (article.price[cart.currency] === undefined) {
    invalid(
      ctx,
      byId !== undefined ? "/body/articleId" : "/body/articleSlug",
      ctx.text(msg("shop.cart.the-article-is-not-sold-in", { currency: cart.currency })),
    );
  }
  if (parsedTime(slot.startsAt) <= now) {
    invalid(ctx, "/body/slotId", ctx.text(msg("shop.cart.this-slot-has-already-started")));
  }
  const existing = cart.items.find((i) => i.articleId === article.id && i.slotId === slot.id);
  const alreadyOfArticle = cart.items
    .filter((i) => i.articleId === article.id)
    .reduce((n, i) => n + i.quantity, 0);
  checkMaxPerOrder(ctx, article, alreadyOfArticle + body.quantity, "/body/quantity");
  // Lapsed holds of the same line are re-taken together with the new seats.
  const need = body.quantity + (existing ? existing.quantity - existing.held : 0);
  if (!takeSeats(slot, need)) capacityProblem(ctx, slot.id, availableSeats(slot), need);
  let item: ItemRecord;
  if (existing) {
    existing.quantity += body.quantity;
    existing.held += need;
    item = existing;
  } else {
    item = {
      id: ctx.id("itm"),
      articleId: article.id,
      slotId: slot.id,
      eventId: slot.eventId,
      quantity: body.quantity,
      held: need,
    };
    // A new array of the exact length (`concat`): a push, or a spread into a literal, reserves 17 slots (≈ 130
    // bytes a cart, kept as long as the cart, ten thousand carts a session).
    cart.items = cart.items.concat([item]);
  }
  reacquire(state, cart);
  touch(state, cart, now);
  ctx.emit("cart.item_added", {
    cart: webhookCart(state, cart),
    item: webhookItem(state, item, cart.currency),
  });
  return created(ctx, state, cart);
}

function findItem(ctx: OperationContext, cart: CartRecord): ItemRecord {
  const id = ctx.params.itemId ?? "";
  const item = cart.items.find((i) => i.id === id);
  if (!item) {
    return ctx.problem("not-found", ctx.text(msg("shop.cart.the-cart-has-no-item", { id })));
  }
  return item;
}

export function updateCartItem(ctx: ContextOf<"updateCartItem">): ResultOf<"updateCartItem"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const item = findItem(ctx, cart);
  const { quantity } = ctx.body;
  const article = state.articles[item.articleId];
  const slot = state.slots[item.slotId];
  if (article) {
    const others = cart.items
      .filter((i) => i.articleId === article.id && i !== item)
      .reduce((n, i) => n + i.quantity, 0);
    checkMaxPerOrder(ctx, article, others + quantity, "/body/quantity");
  }
  if (slot) {
    if (quantity > item.held) {
      const need = quantity - item.held;
      if (!takeSeats(slot, need)) capacityProblem(ctx, slot.id, availableSeats(slot), need);
      item.held += need;
    } else {
      slot.held = Math.max(0, slot.held - (item.held - quantity));
      item.held = quantity;
    }
  }
  const previousQuantity = item.quantity;
  item.quantity = quantity;
  reacquire(state, cart);
  touch(state, cart, now);
  ctx.emit("cart.item_updated", {
    cart: webhookCart(state, cart),
    item: webhookItem(state, item, cart.currency),
    previousQuantity,
  });
  return ok(ctx, state, cart);
}

export function removeCartItem(ctx: ContextOf<"removeCartItem">): ResultOf<"removeCartItem"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const item = findItem(ctx, cart);
  releaseItem(state, item);
  cart.items = cart.items.filter((i) => i !== item);
  // No hold left to lapse on an empty cart: the voucher's use goes back now (adding an item takes it again if free).
  if (cart.items.length === 0) releaseUse(state, cart);
  touch(state, cart, now);
  ctx.emit("cart.item_removed", {
    cart: webhookCart(state, cart),
    item: webhookItem(state, item, cart.currency),
  });
  return ok(ctx, state, cart);
}

export function setCartCustomer(ctx: ContextOf<"setCartCustomer">): ResultOf<"setCartCustomer"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const customer = ctx.body;
  cart.customer = {
    firstName: customer.firstName,
    lastName: customer.lastName,
    email: customer.email,
    ...(customer.phone !== undefined ? { phone: customer.phone } : {}),
    ...(customer.company !== undefined ? { company: customer.company } : {}),
    ...(customer.surveyAnswers !== undefined ? { surveyAnswers: customer.surveyAnswers } : {}),
  };
  touch(state, cart, now);
  ctx.emit("cart.customer_attached", {
    cart: webhookCart(state, cart),
    customer: { firstName: customer.firstName, lastName: customer.lastName, email: customer.email },
  });
  return ok(ctx, state, cart);
}

export function listCartPaymentProviders(
  ctx: ContextOf<"listCartPaymentProviders">,
): ResultOf<"listCartPaymentProviders"> {
  const { state, now } = load(ctx);
  findCart(ctx, state, now);
  return {
    status: 200,
    body: {
      items: state.config.paymentProviders.map((p) => ({ id: p.id, name: ctx.text(p.name), kind: p.kind })),
    },
  };
}

export function setCartPaymentProvider(
  ctx: ContextOf<"setCartPaymentProvider">,
): ResultOf<"setCartPaymentProvider"> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const { paymentProviderId } = ctx.body;
  if (!state.config.paymentProviders.some((p) => p.id === paymentProviderId)) {
    invalid(
      ctx,
      "/body/paymentProviderId",
      ctx.text(msg("shop.cart.unknown-payment-provider-see-payment-providers", { paymentProviderId })),
    );
  }
  cart.paymentProviderId = paymentProviderId;
  touch(state, cart, now);
  ctx.emit("cart.payment_provider_selected", { cart: webhookCart(state, cart), paymentProviderId });
  return ok(ctx, state, cart);
}

export { cartTotal };
