import type { EntradaError } from "@entrada/sdk/shop";
import type { AnalyticsEvent } from "./core/analytics";
import type { FetchSessionToken } from "./core/default-shop-api";
import type { ShopApi } from "./core/shop-api";
import type { Cart, EventFilters, Order } from "./core/types";

import { LOCALES, type Locale } from "./generated/cultures";

/** Cultures the widget ships texts for: generated from the contract's culture data (`pnpm generate`). */
export { DEFAULT_LOCALE, LOCALES, type Locale } from "./generated/cultures";

export type Step = "events" | "event" | "cart" | "details" | "payment" | "confirmation";

/** Design tokens, applied as CSS custom properties (`--entrada-color-primary`, ...) on the widget's root. */
export interface Appearance {
  colorPrimary?: string;
  colorOnPrimary?: string;
  colorBackground?: string;
  colorSurface?: string;
  colorText?: string;
  colorMuted?: string;
  colorBorder?: string;
  colorDanger?: string;
  colorSuccess?: string;
  radius?: string;
  spacing?: string;
  fontFamily?: string;
  fontSize?: string;
}

export interface BeforeRedirectContext {
  url: string;
  cartId: string;
  paymentId: string;
}

export interface AnalyticsOptions {
  /** Receives every GA4 e-commerce event. */
  onEvent?: (event: AnalyticsEvent) => void;
  /**
   * Push events to a GTM-style data layer (clear-then-push). `true` uses `window.dataLayer`, a string names
   * another global, an array is used as is.
   */
  dataLayer?: boolean | string | unknown[];
  /**
   * Your GA4 measurement id (`G-…`). Set it only once the visitor consented to analytics: the checkout then passes
   * the visitor's GA4 client and session ids to the API (`gtag('get', …)`, at most 300 ms, else the `_ga` cookies),
   * which echoes them in the `cart.completed` webhook, so a server-side `purchase` joins the browser's visitor and
   * session. Without it nothing is read or sent. A change (consent withdrawn) applies live through `update()`.
   */
  measurementId?: string;
}

/** Host callbacks. All optional; errors thrown by a callback are caught and do not break the widget. */
export interface ShopCallbacks {
  onReady?: () => void;
  onStepChange?: (step: Step) => void;
  onCartChange?: (cart: Cart | null) => void;
  onCheckoutComplete?: (order: Order) => void;
  /**
   * What failed, as the SDK's `EntradaError` (switch on `kind`, and on `slug` for a problem: `isProblem(error,
   * "sold-out")`); the buyer is shown it in place, translated. A wrong `buyer` / `lockBuyer` is an
   * `invalid-argument` error naming the option (`argument: "buyer.email"`).
   */
  onError?: (error: EntradaError) => void;
  /** Called before leaving for a payment page. Return `false` (or a promise of it) to stay. */
  beforeRedirect?: (context: BeforeRedirectContext) => boolean | undefined | Promise<boolean | undefined>;
  onLocaleChange?: (locale: Locale) => void;
}

/** The buyer's details a host page may already know (a member area, a logged-in fan). */
export interface BuyerDetails {
  firstName: string;
  lastName: string;
  email: string;
  /** E.164, e.g. `+41791234567`. */
  phone: string;
  company: string;
}

export type BuyerField = keyof BuyerDetails;

export interface ShopConfig extends ShopCallbacks {
  /** API base URL (the widget calls `<baseUrl>/shop/v1/...`). Needed unless `api` is given. */
  baseUrl?: string;
  /** A session token created by your backend (`POST /shop/v1/sessions`). */
  sessionToken?: string;
  /**
   * Asks your backend for a session token: at start (without `sessionToken`) and once when the API rejects
   * the current one (`rejectedToken` says which; `sessionId` names its shop session when this function returned
   * `{ sessionToken, sessionId }`). Keep one shop session per visitor on your side and renew it
   * (`POST /shop/v1/sessions` with `{ sessionId }`) so an expired token or a return from a payment page keeps
   * the cart.
   */
  fetchSessionToken?: FetchSessionToken;
  /** Your own implementation of the shop operations (e.g. an adapter over an SDK client instance). */
  api?: ShopApi;
  /** `fetch` to use (defaults to the global one). */
  fetch?: typeof fetch;
  /** Culture for texts, API content, numbers, dates and currency. Default `de-CH`. Changes live. */
  locale?: Locale;
  /** Time zone for dates and times. Default `Europe/Zurich`. */
  timeZone?: string;
  theme?: "light" | "dark" | "auto";
  appearance?: Appearance;
  /** Initial catalogue filters; `slug` shows one event directly. */
  filters?: EventFilters;
  /** Distinguishes widgets on one page for resume records and return URLs. Default: the container's id or `shop`. */
  instanceId?: string;
  /** Page the payment provider returns to. Default: the current page. */
  returnUrl?: string;
  /** Navigates to a payment page. Default `location.assign`. */
  navigate?: (url: string) => void;
  /** Interval between payment status checks after a redirect. Default 1000 ms, at most 10 checks. */
  paymentPollIntervalMs?: number;
  analytics?: AnalyticsOptions;
  /** CSP nonce for the stylesheet the widget injects. */
  nonce?: string;
  /** Inject the widget's stylesheet (default `true`); set `false` when you link `style.css` yourself. */
  injectStyles?: boolean;
  /**
   * Prefills the buyer's details, validated like typed input: a value that fails is left out (the buyer sees the
   * field empty and editable) and reported through `error` / `onError` as an `invalid-argument` error naming it.
   * Changes live through `update()`: the new values replace what is in those fields.
   */
  buyer?: Partial<BuyerDetails>;
  /**
   * Fields of `buyer` the buyer cannot change: shown read-only with a hint and sent as given. A field without a
   * valid `buyer` value stays editable (and is reported).
   */
  lockBuyer?: readonly BuyerField[];
}

/** Events of {@link ShopHandle.on}. */
export interface ShopEventMap {
  ready: undefined;
  stepchange: Step;
  cartchange: Cart | null;
  checkoutcomplete: Order;
  error: EntradaError;
  localechange: Locale;
  analytics: AnalyticsEvent;
}

export interface ShopHandle {
  /** Apply a partial configuration live: locale, appearance, theme, callbacks, token... */
  update(partial: Partial<ShopConfig>): void;
  /** Remove the widget and everything it added to the page. */
  unmount(): void;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<K extends keyof ShopEventMap>(event: K, listener: (payload: ShopEventMap[K]) => void): () => void;
}

/** Dates and times show in this zone unless the host sets `timeZone`. */
export const DEFAULT_TIME_ZONE = "Europe/Zurich";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}
