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
import { absoluteHttpUrl, fail } from "./core/config.ts";
import { checkedLocale } from "./core/language.ts";
import type { RetryOptions } from "./core/retry.ts";
import { isBrowserLike } from "./core/runtime.ts";
import { buildSections, type EntradaFetchInit, transportFetch } from "./core/sections.ts";
import { type FetchLike, type Locale, newTransport } from "./core/transport.ts";
import { SDK_VERSION } from "./core/version.ts";
import { shopOperations, surveyOperations } from "./generated/operations.ts";
import type { ShopSection, SurveySection } from "./generated/sections.ts";

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
export { customLocale, normalizeLocale } from "./core/language.ts";
export type { CallOptions, CustomLocale, FetchLike, Locale } from "./core/transport.ts";
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

export interface ShopClientOptions {
  /** Base address of the API, e.g. `https://api.entrada.dev`. */
  baseUrl: string;
  /**
   * The shop session token your backend created (`client.sessions.create()`), or a function asking your backend
   * for one: called with `{}` at start and, once per rejection, with `{ rejectedToken, sessionId }` after a `401`.
   */
  sessionToken: SessionTokenSource;
  /** Default culture (`Accept-Language`); `customLocale("de-AT")` for a culture the SDK does not list. */
  locale?: Locale | undefined;
  /** Headers sent with every request (the call's own `headers` and the dedicated options beat them). */
  headers?: Record<string, string> | undefined;
  /** The fetch to use (default: the global `fetch`, looked up at call time). */
  fetch?: FetchLike | typeof globalThis.fetch | undefined;
  /** Retry settings; `false` disables retries. */
  retry?: RetryOptions | false | undefined;
  /** Timeout of one attempt in ms (default 30 000). */
  timeoutMs?: number | undefined;
}

/** The shop's client: the contract's `shop` and `survey` operations and an authenticated `fetch` (assets). */
export interface ShopClient {
  readonly shop: ShopSection;
  readonly survey: SurveySection;
  /** Authenticated `fetch` for URLs the API hands out (ticket PDFs, receipts) and paths outside the sections. */
  fetch(input: string | URL | Request, init?: EntradaFetchInit): Promise<Response>;
  readonly locale: Locale | undefined;
  readonly baseUrl: string;
}

/** Creates the shop's client. Throws `EntradaConfigError` for invalid options. */
export function createShopClient(options: ShopClientOptions): ShopClient {
  const baseUrl = absoluteHttpUrl("baseUrl", options?.baseUrl);
  const source = options.sessionToken;
  if (typeof source !== "function" && (typeof source !== "string" || source.trim() === ""))
    fail(`"sessionToken" is required: a session token from your backend, or a function returning one.`);
  const locale = checkedLocale(options.locale, fail);
  const given = options.fetch as FetchLike | undefined;
  const transport = newTransport({
    baseUrl,
    // Called unbound (a browser's native fetch throws "Illegal invocation" as a method of another object), and
    // the global looked up per call so tools that patch it (msw) are honoured.
    fetch: given
      ? (request, init) => given(request, init)
      : (request, init) => globalThis.fetch(request, init),
    locale,
    headers: options.headers === undefined ? undefined : new Headers(options.headers),
    userAgent: isBrowserLike() ? undefined : `entrada-sdk-js/${SDK_VERSION} shop`,
    timeoutMs: options.timeoutMs,
    retry: options.retry,
  });
  transport.config.auth = staticAuth(source);
  const sections = buildSections(
    { transport, baseUrl, basic: () => undefined },
    { shop: shopOperations, survey: surveyOperations },
  );
  return {
    ...sections,
    fetch: transportFetch(transport, baseUrl),
    locale: locale as Locale | undefined,
    baseUrl,
  } as unknown as ShopClient;
}
