/**
 * The Entrada shop for any page: `mount(container, config)` → `{ update, unmount, on }`.
 * React hosts use `@entrada/shop-widget/react`. Importing this module touches no DOM (safe on a server).
 */

export {
  type AnalyticsOptions,
  type Appearance,
  type BeforeRedirectContext,
  LOCALES,
  type Locale,
  type ShopCallbacks,
  type ShopConfig,
  type ShopEventMap,
  type ShopHandle,
  type Step,
} from "./config";
export type { AnalyticsEvent, AnalyticsEventName, AnalyticsItem, AnalyticsParams } from "./core/analytics";
export type { FetchSessionToken, SessionTokenGrant, SessionTokenRequest } from "./core/default-shop-api";
export * from "./core/errors";
export type { CallOptions, ShopApi } from "./core/shop-api";
export type { Question, QuestionType, Survey, SurveyAnswer } from "./core/survey";
export type {
  Cart,
  CartItem,
  CheckoutResult,
  Customer,
  EventDetail,
  EventFilters,
  EventSummary,
  Money,
  Order,
  Payment,
  PaymentProvider,
  Ticket,
} from "./core/types";
export { mount } from "./mount";
export const version: string = __ENTRADA_SHOP_VERSION__;
