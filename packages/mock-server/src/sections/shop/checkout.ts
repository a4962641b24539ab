import { msg } from "../../core/messages.ts";
import type { ContextOf, ResultOf } from "../../core/section.ts";
import type { OperationContext } from "../../core/types.ts";
import { assertOpen, findCart, invalid, load, notFound } from "./common.ts";
import { webhookCart, webhookOrder, webhookPayment, webhookTicket } from "./events.ts";
import { reacquire, refreshHold, releaseCart } from "./holds.ts";
import { admitOrder, admitPayment, dropOrphanPayment, droppedDetail } from "./order-cap.ts";
import { quicodeFor } from "./quicode.ts";
import type { CartRecord, OrderRecord, PaymentRecord, ShopState, TicketRecord } from "./state.ts";
import { cartTotal, iso, mockLink, orderView, paymentView } from "./views.ts";
import { cartVoucher, pricing, redeemUse } from "./vouchers.ts";

export const TEST_CARDS = { succeeds: "4242424242424242", declines: "4000000000000002" } as const;

/** Whether a digit string passes the Luhn check (card numbers; also what the proxy's sanitizer looks for). */
export function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Simulated authorization round-trip: the request yields to others while the cart is locked. */
function authorize(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}

/** Turns the cart's held seats into sold seats and issues the order and its tickets. */
function fulfil(
  ctx: OperationContext,
  state: ShopState,
  cart: CartRecord,
  payment: PaymentRecord,
  now: number,
): OrderRecord {
  const customer = cart.customer ?? { firstName: "", lastName: "", email: "" };
  const prices = pricing(state, cart);
  const order: OrderRecord = {
    id: ctx.id("ord"),
    cartId: cart.id,
    customer,
    items: cart.items.map((i) => ({ ...i, held: 0 })),
    currency: cart.currency,
    subtotal: prices.subtotal,
    discounts: prices.discounts,
    total: prices.total,
    createdAt: iso(now),
    ticketIds: [],
    paymentId: payment.id,
    culture: ctx.culture,
    ...(cart.analytics ? { analytics: cart.analytics } : {}),
  };
  for (const item of cart.items) {
    const slot = state.slots[item.slotId];
    if (slot) {
      slot.held = Math.max(0, slot.held - item.held);
      slot.sold += item.quantity;
    }
    item.held = 0;
    for (let n = 0; n < item.quantity; n++) {
      const id = ctx.id("tkt");
      const ticket: TicketRecord = {
        id,
        orderId: order.id,
        eventId: item.eventId,
        slotId: item.slotId,
        articleId: item.articleId,
        articleName: state.articles[item.articleId]?.name ?? {},
        holderName: `${customer.firstName} ${customer.lastName}`.trim(),
        quicode: quicodeFor(id),
        status: "valid",
      };
      state.tickets[id] = ticket;
      order.ticketIds.push(id);
    }
  }
  redeemUse(state, cart);
  state.orders[order.id] = order;
  admitOrder(state, order);
  cart.status = "completed";
  cart.orderId = order.id;
  cart.holdExpiresAt = null;
  cart.paymentId = null;
  cart.updatedAt = now;
  payment.status = "succeeded";
  payment.orderId = order.id;
  payment.completedAt = iso(now);
  ctx.emit("payment.succeeded", { payment: webhookPayment(payment) });
  ctx.emit("cart.completed", { cart: webhookCart(state, cart), order: webhookOrder(ctx, state, order) });
  for (const id of order.ticketIds) {
    const ticket = state.tickets[id];
    if (ticket) ctx.emit("ticket.issued", { ticket: webhookTicket(ctx, ticket) });
  }
  return order;
}

/** Unlocks the cart after a failed or cancelled payment; the items (and their holds) stay. */
function unlock(state: ShopState, cart: CartRecord, now: number): void {
  cart.status = "open";
  cart.paymentId = null;
  cart.updatedAt = now;
  reacquire(state, cart);
  refreshHold(state, cart, now);
}

export async function checkoutCart(ctx: ContextOf<"checkoutCart">): Promise<ResultOf<"checkoutCart">> {
  const { state, now } = load(ctx);
  const cart = findCart(ctx, state, now);
  assertOpen(ctx, cart);
  const missing: string[] = [];
  if (cart.items.length === 0) missing.push("items");
  if (!cart.customer) missing.push("customer");
  if (!cart.paymentProviderId) missing.push("paymentProvider");
  if (missing.length > 0) {
    ctx.problem("cart-not-ready", ctx.text(msg("shop.checkout.missing", { value: missing.join(", ") })), {
      missing,
    });
  }
  const provider = state.config.paymentProviders.find((p) => p.id === cart.paymentProviderId);
  const body = ctx.body ?? {};
  if (provider?.kind === "card" && !body.paymentMethod) {
    invalid(
      ctx,
      "/body/paymentMethod",
      ctx.text(
        msg("shop.checkout.card-payment-needs-paymentmethod-cardnumber-test", {
          succeeds: TEST_CARDS.succeeds,
        }),
      ),
    );
  }
  if (provider?.kind === "redirect" && !body.returnUrl) {
    invalid(ctx, "/body/returnUrl", ctx.text(msg("shop.checkout.the-hosted-payment-page-needs-a")));
  }
  if (body.returnUrl !== undefined && !/^https?:\/\//i.test(body.returnUrl)) {
    invalid(ctx, "/body/returnUrl", "returnUrl must be an http(s) URL.");
  }
  if (provider?.kind === "card" && body.paymentMethod && !luhn(body.paymentMethod.cardNumber)) {
    invalid(
      ctx,
      "/body/paymentMethod/cardNumber",
      ctx.text(msg("shop.checkout.the-card-number-is-not-valid")),
    );
  }

  // Seats: an open cart holds every item's seats (a lapsed hold made it `expired`, refused above). A line short of
  // its seats (a snapshot from before that rule) is refused the same way, and nothing is taken for it.
  const lapsed = cart.items.filter((i) => i.held < i.quantity);
  if (lapsed.length > 0) {
    ctx.problem("hold-expired", undefined, {
      cartId: cart.id,
      items: lapsed.map((i) => ({ itemId: i.id, slotId: i.slotId, quantity: i.quantity })),
    });
  }

  // The voucher's use: a cart emptied gave it back, and refilling it found none free.
  const voucher = cartVoucher(state, cart);
  if (voucher && !cart.voucherHeld) {
    ctx.problem(
      "voucher-used-up",
      ctx.text(msg("shop.checkout.the-voucher-code-has-been-used", { code: voucher.code })),
      { code: voucher.code, cartId: cart.id },
    );
  }

  // Lock, then pay. Nothing above awaited, so no other request saw the seats between check and lock.
  cart.status = "locked";
  cart.updatedAt = now;
  // The ids travel with this checkout only: a later one without them (consent withdrawn) leaves the order without.
  if (body.analytics) cart.analytics = { ...body.analytics };
  else delete cart.analytics;
  const payment: PaymentRecord = {
    id: ctx.id("pay"),
    cartId: cart.id,
    providerId: provider?.id ?? "card",
    status: "pending",
    orderId: null,
    returnUrl: body.returnUrl ?? null,
    amount: cartTotal(state, cart),
    currency: cart.currency,
    createdAt: iso(now),
    expiresAt: now + state.config.paymentTtlSeconds * 1000,
    completedAt: null,
  };
  state.payments[payment.id] = payment;
  cart.paymentId = payment.id;
  admitPayment(state, payment);
  ctx.emit("cart.locked", { cart: webhookCart(state, cart), paymentId: payment.id });

  if (provider?.kind === "redirect") {
    const redirectUrl = mockLink(ctx, `/pay/${payment.id}`);
    ctx.emit("payment.pending", { payment: webhookPayment(payment), redirectUrl });
    return {
      status: 202,
      body: { status: "pending", paymentId: payment.id, redirectUrl },
    };
  }

  await authorize();
  const card = body.paymentMethod?.cardNumber ?? "";
  const later = ctx.clock.now();
  if (card !== TEST_CARDS.succeeds) {
    payment.status = "failed";
    payment.completedAt = iso(later);
    unlock(state, cart, later);
    ctx.emit("payment.failed", {
      payment: webhookPayment(payment),
      failureCode: "card_declined",
      failureMessage: card === TEST_CARDS.declines ? "Test card declined." : "Unknown test card.",
    });
    ctx.emit("cart.unlocked", {
      cart: webhookCart(state, cart),
      paymentId: payment.id,
      reason: "payment_failed",
    });
    ctx.problem(
      "payment-declined",
      card === TEST_CARDS.declines
        ? undefined
        : ctx.text(
            msg("shop.checkout.the-mock-accepts-only-the-test", {
              succeeds: TEST_CARDS.succeeds,
              declines: TEST_CARDS.declines,
            }),
          ),
      { paymentId: payment.id, cartId: cart.id },
    );
  }
  const order = fulfil(ctx, state, cart, payment, later);
  return { status: 200, body: { status: "completed", order: orderView(state, order, ctx) } };
}

/** Expires a pending redirect payment whose window passed (the cart unlocks). */
function expireIfStale(ctx: OperationContext, state: ShopState, payment: PaymentRecord, now: number): void {
  if (payment.status !== "pending" || payment.expiresAt > now) return;
  payment.status = "failed";
  payment.completedAt = iso(now);
  const cart = state.carts.get(payment.cartId);
  if (cart && cart.status === "locked" && cart.paymentId === payment.id) {
    unlock(state, cart, now);
    ctx.emit("cart.unlocked", {
      cart: webhookCart(state, cart),
      paymentId: payment.id,
      reason: "payment_expired",
    });
  }
  ctx.emit("payment.expired", { payment: { ...webhookPayment(payment), status: "expired" } });
}

export type PaymentResult = "success" | "failure" | "cancel";

/**
 * Completes a pending redirect payment exactly once: the first result wins; later calls only read it.
 * Returns the payment after the call.
 */
export function completeRedirectPayment(
  ctx: OperationContext,
  paymentId: string,
  result: PaymentResult,
): PaymentRecord | null {
  const { state, now } = load(ctx);
  const payment = state.payments[paymentId];
  if (!payment) return null;
  expireIfStale(ctx, state, payment, now);
  if (payment.status !== "pending") return payment;
  const cart = state.carts.get(payment.cartId);
  if (!cart) return payment;
  if (result === "success") {
    fulfil(ctx, state, cart, payment, now);
  } else {
    payment.status = result === "failure" ? "failed" : "cancelled";
    payment.completedAt = iso(now);
    unlock(state, cart, now);
    if (result === "failure") {
      ctx.emit("payment.failed", {
        payment: webhookPayment(payment),
        failureCode: "authentication_failed",
        failureMessage: "The buyer failed the payment on the hosted page.",
      });
    } else {
      ctx.emit("payment.cancelled", { payment: webhookPayment(payment) });
    }
    ctx.emit("cart.unlocked", {
      cart: webhookCart(state, cart),
      paymentId: payment.id,
      reason: result === "failure" ? "payment_failed" : "payment_cancelled",
    });
  }
  return payment;
}

export function getPayment(ctx: ContextOf<"getPayment">): ResultOf<"getPayment"> {
  const { state, now } = load(ctx);
  const id = ctx.params.paymentId ?? "";
  const payment = state.payments[id];
  const cart = payment ? state.carts.get(payment.cartId) : undefined;
  if (payment && !cart) dropOrphanPayment(state, payment);
  if (!payment || !cart) {
    const gone = droppedDetail(state, "payment", id);
    if (gone) notFound(ctx, gone);
    notFound(ctx, msg("shop.checkout.there-is-no-payment", { id }));
  }
  findCart(ctx, state, now, cart.id);
  expireIfStale(ctx, state, payment, now);
  return { status: 200, body: paymentView(payment) };
}

function findOrder(ctx: OperationContext, state: ShopState, now: number): OrderRecord {
  const id = ctx.params.orderId ?? "";
  const order = state.orders[id];
  if (!order || !state.carts.has(order.cartId)) {
    const gone = droppedDetail(state, "order", id);
    if (gone) notFound(ctx, gone);
    return notFound(ctx, msg("shop.checkout.there-is-no-order", { id }));
  }
  // Visibility follows the cart's.
  findCart(ctx, state, now, order.cartId);
  return order;
}

export function getOrder(ctx: ContextOf<"getOrder">): ResultOf<"getOrder"> {
  const { state, now } = load(ctx);
  return { status: 200, body: orderView(state, findOrder(ctx, state, now), ctx) };
}

export function listOrderTickets(ctx: ContextOf<"listOrderTickets">): ResultOf<"listOrderTickets"> {
  const { state, now } = load(ctx);
  const order = findOrder(ctx, state, now);
  return { status: 200, body: { items: orderView(state, order, ctx).tickets } };
}

export { releaseCart };
