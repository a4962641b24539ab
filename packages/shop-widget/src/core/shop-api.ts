import type { AddCartItemByArticleId, CheckoutRequest, CreateCartRequest } from "@entrada/sdk";
import type { Survey } from "./survey";
import type {
  Cart,
  CheckoutResult,
  Customer,
  EventDetail,
  EventFilters,
  EventListing,
  Order,
  Page,
  Payment,
  PaymentProvider,
  Venue,
} from "./types";

/** Per-call options: the culture for Accept-Language, cancellation, and an idempotency key for writes. */
export interface CallOptions {
  locale: string;
  signal?: AbortSignal | undefined;
  idempotencyKey?: string | undefined;
}

/**
 * The shop operations the widget needs. One implementation talks HTTP through the SDK; tests and hosts may
 * pass their own. Every method rejects with the SDK's `EntradaError` (`createSdkShopApi` does): the widget shows
 * the buyer its translated text and hands it to the host's `onError`; anything else reads "Something went wrong".
 */
export interface ShopApi {
  listVenues(options: CallOptions): Promise<Venue[]>;
  /** A catalogue page with every event's slots and pricing assortments (`include=slots,assortments`). */
  listEvents(
    filters: EventFilters,
    cursor: string | undefined,
    options: CallOptions,
  ): Promise<Page<EventListing>>;
  getEvent(eventId: string, options: CallOptions): Promise<EventDetail>;
  createCart(body: CreateCartRequest, options: CallOptions): Promise<Cart>;
  getCart(cartId: string, options: CallOptions): Promise<Cart>;
  addCartItem(cartId: string, body: AddCartItemByArticleId, options: CallOptions): Promise<Cart>;
  updateCartItem(cartId: string, itemId: string, quantity: number, options: CallOptions): Promise<Cart>;
  removeCartItem(cartId: string, itemId: string, options: CallOptions): Promise<Cart>;
  setCartCustomer(cartId: string, customer: Customer, options: CallOptions): Promise<Cart>;
  /** Applies a voucher code (idempotent: the same code again changes nothing). */
  applyCartVoucher(cartId: string, code: string, options: CallOptions): Promise<Cart>;
  /** Removes the cart's voucher code (idempotent). */
  removeCartVoucher(cartId: string, options: CallOptions): Promise<Cart>;
  listCartPaymentProviders(cartId: string, options: CallOptions): Promise<PaymentProvider[]>;
  setCartPaymentProvider(cartId: string, paymentProviderId: string, options: CallOptions): Promise<Cart>;
  checkoutCart(cartId: string, body: CheckoutRequest, options: CallOptions): Promise<CheckoutResult>;
  getPayment(paymentId: string, options: CallOptions): Promise<Payment>;
  getOrder(orderId: string, options: CallOptions): Promise<Order>;
  getSurvey(surveyId: string, options: CallOptions): Promise<Survey>;
  /** An asset behind the session token (ticket PDF, receipt), by the absolute URL the API gave. */
  getAsset(url: string, options: CallOptions): Promise<Blob>;
}
