/**
 * Caps and a lifetime for what a checkout leaves behind (bounded by design, like carts in `cart-cap.ts`): a session
 * keeps at most `config.maxOrders` orders and `config.maxTickets` tickets (whole orders go, oldest first, with their
 * tickets and their payment) and at most `config.maxPayments` payments (oldest first; a pending payment whose cart
 * is locked is passed over once). Orders and settled payments also lapse `config.orderRetentionSeconds` after they
 * were created on the mock clock. When a cart is dropped (its cap or its retention), its order, tickets and payments
 * go with it. Dropped ids are remembered (as many as the caps together, oldest forgotten first) with the reason, so a
 * read answers a 404 that says what happened instead of a bare "no such order".
 */
import { msg } from "../../core/messages.ts";
import type { LocalizedText } from "../../core/types.ts";
import { compact } from "../shared/fifo.ts";
import {
  DEFAULT_MAX_ORDERS,
  DEFAULT_MAX_PAYMENTS,
  DEFAULT_MAX_TICKETS,
  DEFAULT_ORDER_RETENTION_SECONDS,
  type DropReason,
  type OrderCapState,
  type OrderRecord,
  type PaymentRecord,
  type ShopState,
} from "./state.ts";

/** Most queue entries one request looks at for the lifetime sweep (amortized O(1) per request). */
const SWEEP_BUDGET = 64;

export function limits(state: ShopState) {
  const c = state.config;
  return {
    maxOrders: c.maxOrders ?? DEFAULT_MAX_ORDERS,
    maxTickets: c.maxTickets ?? DEFAULT_MAX_TICKETS,
    maxPayments: c.maxPayments ?? DEFAULT_MAX_PAYMENTS,
    retentionMs: (c.orderRetentionSeconds ?? DEFAULT_ORDER_RETENTION_SECONDS) * 1000,
  };
}

/** The bookkeeping; a snapshot taken before it existed gets it built from its records (counted once). */
function book(state: ShopState): OrderCapState {
  if (!state.orderCap) {
    const orders = Object.values(state.orders).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    const payments = Object.values(state.payments).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    state.orderCap = {
      orderQueue: orders.map((o) => o.id),
      orderHead: 0,
      orderCount: orders.length,
      ticketCount: Object.keys(state.tickets).length,
      paymentQueue: payments.map((p) => p.id),
      paymentHead: 0,
      paymentCount: payments.length,
      dropped: {},
      droppedQueue: [],
      droppedHead: 0,
    };
  }
  return state.orderCap;
}

function remember(state: ShopState, b: OrderCapState, id: string, reason: DropReason): void {
  b.dropped[id] = reason;
  b.droppedQueue.push(id);
  const { maxOrders, maxTickets, maxPayments } = limits(state);
  while (b.droppedQueue.length - b.droppedHead > maxOrders + maxTickets + maxPayments) {
    delete b.dropped[b.droppedQueue[b.droppedHead++] as string];
  }
  [b.droppedQueue, b.droppedHead] = compact(b.droppedQueue, b.droppedHead);
}

function dropPayment(state: ShopState, b: OrderCapState, payment: PaymentRecord, reason: DropReason): void {
  delete state.payments[payment.id];
  b.paymentCount = Math.max(0, b.paymentCount - 1);
  remember(state, b, payment.id, reason);
}

/** Drops an order with its tickets and its payment. */
function dropOrder(state: ShopState, b: OrderCapState, order: OrderRecord, reason: DropReason): void {
  for (const id of order.ticketIds) {
    if (state.tickets[id] === undefined) continue;
    delete state.tickets[id];
    b.ticketCount = Math.max(0, b.ticketCount - 1);
    remember(state, b, id, reason);
  }
  delete state.orders[order.id];
  b.orderCount = Math.max(0, b.orderCount - 1);
  remember(state, b, order.id, reason);
  const payment = state.payments[order.paymentId];
  if (payment) dropPayment(state, b, payment, reason);
}

function isBusy(state: ShopState, payment: PaymentRecord): boolean {
  return payment.status === "pending" && state.carts.get(payment.cartId)?.paymentId === payment.id;
}

function capPayments(state: ShopState, b: OrderCapState, keep: string): void {
  const { maxPayments } = limits(state);
  let passes = b.paymentQueue.length - b.paymentHead;
  while (b.paymentCount > maxPayments && passes-- > 0) {
    const id = b.paymentQueue[b.paymentHead++] as string;
    const payment = state.payments[id];
    if (!payment) continue;
    if (id !== keep && isBusy(state, payment)) {
      b.paymentQueue.push(id);
      continue;
    }
    const order = payment.orderId ? state.orders[payment.orderId] : undefined;
    if (order) dropOrder(state, b, order, "cap");
    else dropPayment(state, b, payment, "cap");
  }
  [b.paymentQueue, b.paymentHead] = compact(b.paymentQueue, b.paymentHead);
}

/** Registers a new payment (call after storing it), dropping the oldest beyond `maxPayments`. O(1) amortized. */
export function admitPayment(state: ShopState, payment: PaymentRecord): void {
  const built = state.orderCap === undefined;
  const b = book(state);
  if (!built) {
    b.paymentQueue.push(payment.id);
    b.paymentCount++;
  }
  capPayments(state, b, payment.id);
}

/** Registers a new order and its tickets (call after storing them), dropping the oldest beyond the caps. */
export function admitOrder(state: ShopState, order: OrderRecord): void {
  const built = state.orderCap === undefined;
  const b = book(state);
  if (!built) {
    b.orderQueue.push(order.id);
    b.orderCount++;
    b.ticketCount += order.ticketIds.length;
  }
  // The newest order is never dropped for its own tickets: a single order larger than the cap stays alone.
  const { maxOrders, maxTickets } = limits(state);
  while ((b.orderCount > maxOrders || b.ticketCount > maxTickets) && b.orderCount > 1) {
    const id = b.orderQueue[b.orderHead] as string;
    if (id === order.id) break;
    b.orderHead++;
    const victim = state.orders[id];
    if (victim) dropOrder(state, b, victim, "cap");
  }
  [b.orderQueue, b.orderHead] = compact(b.orderQueue, b.orderHead);
}

/**
 * Lifetime: drops orders (with tickets and payment) and settled payments created more than `orderRetentionSeconds`
 * ago. Looks at most at `SWEEP_BUDGET` entries per call; creation order is time order on the mock clock.
 */
export function sweepOrders(state: ShopState, now: number): void {
  const b = book(state);
  const { retentionMs } = limits(state);
  const cutoff = now - retentionMs;
  for (let budget = SWEEP_BUDGET; budget > 0 && b.orderHead < b.orderQueue.length; budget--) {
    const order = state.orders[b.orderQueue[b.orderHead] as string];
    if (order && Date.parse(order.createdAt) > cutoff) break;
    b.orderHead++;
    if (order) dropOrder(state, b, order, "lifetime");
  }
  [b.orderQueue, b.orderHead] = compact(b.orderQueue, b.orderHead);
  for (let budget = SWEEP_BUDGET; budget > 0 && b.paymentHead < b.paymentQueue.length; budget--) {
    const payment = state.payments[b.paymentQueue[b.paymentHead] as string];
    if (payment && Date.parse(payment.createdAt) > cutoff) break;
    b.paymentHead++;
    if (!payment) continue;
    if (isBusy(state, payment)) {
      b.paymentQueue.push(payment.id);
      continue;
    }
    const order = payment.orderId ? state.orders[payment.orderId] : undefined;
    if (order) dropOrder(state, b, order, "lifetime");
    else dropPayment(state, b, payment, "lifetime");
  }
  [b.paymentQueue, b.paymentHead] = compact(b.paymentQueue, b.paymentHead);
}

/** A cart was dropped (its cap or its retention): its order (with tickets and payment) and its pending payment go too. */
export function dropForCart(
  state: ShopState,
  cart: { orderId: string | null; paymentId: string | null },
): void {
  const b = book(state);
  const order = cart.orderId ? state.orders[cart.orderId] : undefined;
  if (order) dropOrder(state, b, order, "cart");
  const payment = cart.paymentId ? state.payments[cart.paymentId] : undefined;
  if (payment) dropPayment(state, b, payment, "cart");
}

/** A payment outlived its cart (an earlier, failed attempt of a dropped cart): drop it now. */
export function dropOrphanPayment(state: ShopState, payment: PaymentRecord): void {
  dropPayment(state, book(state), payment, "cart");
}

/** Why this order, ticket or payment id is gone, if it is remembered as dropped. */
export function droppedReason(state: ShopState, id: string): DropReason | null {
  return (state as ShopState | undefined)?.orderCap?.dropped[id] ?? null;
}

/** Orders + tickets + payments kept (for the engine-wide `maxRetainedRecords`), O(1). */
export function retainedCheckoutRecords(state: ShopState): number {
  const b = state.orderCap;
  return b ? b.orderCount + b.ticketCount + b.paymentCount : 0;
}

type Kind = "order" | "ticket" | "payment";
const NOUN: Record<Kind, LocalizedText> = {
  order: msg("shop.order-cap.the-order"),
  ticket: msg("shop.order-cap.the-ticket"),
  payment: msg("shop.order-cap.the-payment"),
};

/**
 * The 404 detail for a dropped order, ticket or payment (null when the id is not remembered as dropped): which
 * limit removed it and the seed field that sets it.
 */
export function droppedDetail(state: ShopState, kind: Kind, id: string): LocalizedText | null {
  const reason = droppedReason(state, id);
  if (!reason) return null;
  const n = NOUN[kind];
  const l = limits(state);
  if (reason === "lifetime") {
    const days = Math.round((l.retentionMs / 86_400_000) * 100) / 100;
    return msg("shop.order-cap.was-evicted-the-mock-keeps-orders", { noun: n, id, days });
  }
  if (reason === "cart") {
    return msg("shop.order-cap.was-evicted-with-its-cart-shop", { noun: n, id });
  }
  const fields = "shop.maxOrders, shop.maxTickets, shop.maxPayments";
  return msg("shop.order-cap.was-evicted-the-mock-keeps-at", {
    noun: n,
    id,
    maxOrders: l.maxOrders,
    maxTickets: l.maxTickets,
    maxPayments: l.maxPayments,
    fields,
  });
}
