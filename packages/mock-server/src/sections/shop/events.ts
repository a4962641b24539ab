/**
 * Webhook payload snapshots exactly as the contract's `webhooks` section describes them (WebhookCart,
 * WebhookCartItem, WebhookPayment, WebhookTicket). Item names are marked for localization in each
 * subscription's culture.
 */
import { msg } from "../../core/messages.ts";
import type { OperationContext } from "../../core/types.ts";
import { localizedValue } from "../webhooks/index.ts";
import type {
  CartRecord,
  Currency,
  ItemRecord,
  OrderRecord,
  PaymentRecord,
  ShopState,
  TicketRecord,
} from "./state.ts";
import { iso, ticketView } from "./views.ts";
import { type DiscountRecord, pricing } from "./vouchers.ts";

/** A discount line with its name marked for localization in each subscription's culture. */
function webhookDiscount(line: DiscountRecord, currency: Currency) {
  return {
    code: line.code,
    kind: line.kind,
    name: localizedValue(line.name),
    amount: { amount: line.amount, currency },
  };
}

export function webhookCart(state: ShopState, cart: CartRecord) {
  const prices = pricing(state, cart);
  return {
    id: cart.id,
    status: cart.status,
    currency: cart.currency,
    itemCount: cart.items.reduce((n, i) => n + i.quantity, 0),
    subtotal: { amount: prices.subtotal, currency: cart.currency },
    discounts: prices.discounts.map((line) => webhookDiscount(line, cart.currency)),
    total: { amount: prices.total, currency: cart.currency },
    customerEmail: cart.customer?.email ?? null,
    paymentProviderId: cart.paymentProviderId,
    holdExpiresAt: cart.holdExpiresAt === null ? null : iso(cart.holdExpiresAt),
    orderId: cart.orderId,
  };
}

export function webhookItem(state: ShopState, item: ItemRecord, currency: Currency) {
  const article = state.articles[item.articleId];
  const event = state.events[item.eventId];
  const unit = article?.price[currency] ?? 0;
  const name = msg("shop.item-name", { event: event?.name ?? "", article: article?.name ?? "" });
  return {
    id: item.id,
    articleId: item.articleId,
    eventId: item.eventId,
    slotId: item.slotId,
    name: localizedValue(name),
    quantity: item.quantity,
    unitPrice: { amount: unit, currency },
    lineTotal: { amount: unit * item.quantity, currency },
  };
}

export function webhookPayment(payment: PaymentRecord) {
  return {
    id: payment.id,
    cartId: payment.cartId,
    orderId: payment.orderId,
    paymentProviderId: payment.providerId,
    status: payment.status,
    amount: { amount: payment.amount, currency: payment.currency },
  };
}

export function webhookTicket(ctx: OperationContext, ticket: TicketRecord) {
  return ticketView(ctx, ticket);
}

export function webhookOrder(ctx: OperationContext, state: ShopState, order: OrderRecord) {
  return {
    id: order.id,
    paymentId: order.paymentId,
    subtotal: { amount: order.subtotal ?? order.total, currency: order.currency },
    discounts: (order.discounts ?? []).map((line) => webhookDiscount(line, order.currency)),
    total: { amount: order.total, currency: order.currency },
    customer: {
      firstName: order.customer.firstName,
      lastName: order.customer.lastName,
      email: order.customer.email,
    },
    items: order.items.map((item) => webhookItem(state, item, order.currency)),
    ticketIds: order.ticketIds,
    receiptUrl: ctx.signedUrl(`/assets/v1/orders/${order.id}/receipt`),
    createdAt: order.createdAt,
    ...(order.analytics ? { analytics: { ...order.analytics } } : {}),
  };
}
