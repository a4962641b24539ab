/**
 * `@entrada/sdk/shop`: the lean client of the embedded shop (and any page selling tickets): a shop session token,
 * the `shop` and `survey` sections, and the SDK's one transport — token renewal after a `401`, idempotency keys
 * reused by every retry, retries with jitter and `Retry-After`, timeouts, language, and problem details as typed
 * `EntradaError`s. No client credentials and no other section, so it stays small (size-limit: `pnpm size`).
 * @example
 * const shop = createShopClient({
 *   baseUrl: "https://api.entrada.dev",
 *   // {} at start; { rejectedToken, sessionId } after a 401: your backend renews that session (the cart stays)
 *   sessionToken: (request) => fetch("/backend/shop-session", { method: "POST", body: JSON.stringify(request) }).then((r) => r.json()),
 *   locale: "fr-CH",
 * });
 * const { data, error } = await shop.shop.getEvent({ params: { path: { eventId } } });
 */

import { type SessionTokenSource, staticAuth } from "./core/auth.ts";
import { expected, nonEmpty, type TransportSettings, transportSettings } from "./core/config.ts";

export type { TransportSettings } from "./core/config.ts";

import { authenticatedFetch, type EntradaFetchInit } from "./core/authenticated-fetch.ts";
import { operationFactory } from "./core/operation.ts";
import { createTransport, type Locale, type Middleware } from "./core/transport.ts";
import { type ShopSection, type SurveySection, shopSection, surveySection } from "./generated/sections.ts";

/** GA4's discounted item prices for an order's voucher discount (the widget's browser `purchase` uses it). */
export { type DiscountedUnit, type PricedLine, spreadDiscount } from "./conversions/discount.ts";
export type { SessionTokenGrant, SessionTokenSource, TokenRequest } from "./core/auth.ts";
export type {
  EntradaErrorKind,
  ErrorContext,
  KnownEntradaError,
  ProblemDetails,
  ProblemFieldError,
  ProblemSlug,
} from "./core/errors.ts";
export {
  AbortedError,
  EntradaConfigError,
  EntradaError,
  EntradaProblemError,
  InvalidArgumentError,
  isEntradaError,
  isErrorKind,
  isProblem,
  NetworkError,
  OAuthError,
  problemSlug,
  TimeoutError,
  UnexpectedBodyError,
} from "./core/errors.ts";
export { customLocale, normalizeLocale } from "./core/locale.ts";
export { responseError } from "./core/response-error.ts";
export type {
  CallOptions,
  CustomLocale,
  FetchLike,
  Locale,
  Middleware,
  MiddlewareParams,
} from "./core/transport.ts";
export type {
  EntradaFailure,
  EntradaResult,
  EntradaSuccess,
  RequestError,
  ResponseMeta,
} from "./core/types.ts";
export type { Culture, OperationProblems } from "./generated/problems.ts";
export type { CheckoutCartResult, ShopSection, SurveySection } from "./generated/sections.ts";
export type { EntradaFetchInit };

/** `createShopClient`'s options: the transport settings every client shares, and a shop session token. */
export interface ShopClientOptions extends TransportSettings {
  /**
   * The shop session token your backend created (`client.sessions.create()`), or a function asking your backend
   * for one: called with `{}` at start and, once per rejection, with `{ rejectedToken, sessionId }` after a `401`.
   */
  sessionToken: SessionTokenSource;
}

/** The shop's client: the contract's `shop` and `survey` operations and an authenticated `fetch` (assets). */
export interface ShopClient {
  readonly shop: ShopSection;
  readonly survey: SurveySection;
  /** Authenticated `fetch` for URLs the API hands out (ticket PDFs, receipts) and paths outside the sections. */
  fetch(input: string | URL | Request, init?: EntradaFetchInit): Promise<Response>;
  readonly locale: Locale | undefined;
  readonly baseUrl: string;
  /** Adds middleware to every later attempt of every call (see `EntradaClient.use`). */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use` (or the `middleware` option). */
  eject(...middleware: Middleware[]): void;
}

/** Creates the shop's client. Throws `EntradaConfigError` for invalid options. */
export function createShopClient(options: ShopClientOptions): ShopClient {
  const settings = transportSettings("createShopClient", options, "shop");
  const source = options.sessionToken;
  if (typeof source !== "function" && !nonEmpty(source))
    expected(
      "createShopClient",
      "sessionToken",
      "a session token from your backend or a function returning one",
      source,
    );
  const baseUrl = settings.baseUrl;
  const transport = createTransport({ ...settings, auth: () => staticAuth(source) });
  const op = operationFactory({ transport, baseUrl });
  return {
    shop: shopSection(op),
    survey: surveySection(op),
    fetch: authenticatedFetch(transport, baseUrl),
    locale: settings.locale as Locale | undefined,
    baseUrl,
    use: transport.use,
    eject: transport.eject,
  };
}
