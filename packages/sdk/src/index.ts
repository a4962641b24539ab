// Public surface of @entrada/sdk. Names are listed explicitly; internals stay unexported.

export type {
  EntradaClient,
  EntradaFetchInit,
  RenewSessionBody,
  Section,
  SessionsSection,
} from "./client.ts";
export { createClient } from "./client.ts";
export type { SessionTokenGrant, SessionTokenSource, TokenRequest, TokenSource } from "./core/auth.ts";
export type { EntradaClientOptions, Scope, TransportSettings } from "./core/config.ts";
export type {
  EntradaErrorKind,
  ErrorContext,
  KnownEntradaError,
  OAuthErrorCode,
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
  UnexpectedResponseError,
} from "./core/errors.ts";
export { customLocale, normalizeLocale } from "./core/locale.ts";
export { memoryTokenStore } from "./core/memory-token-store.ts";
export type { CursorPage, Paginator } from "./core/pagination.ts";
export { paginate } from "./core/pagination.ts";
export { responseError } from "./core/response-error.ts";
export type { RetryBudgetOptions } from "./core/retry-budget.ts";
export type { RetryOptions } from "./core/retry-policy.ts";
export type { ClientCredentials, StoredToken, TokenLifetimeOptions, TokenStore } from "./core/token-cache.ts";
export type { CallOptions, CustomLocale, Locale, Middleware, MiddlewareParams } from "./core/transport.ts";
export type {
  EntradaFailure,
  EntradaResult,
  EntradaSuccess,
  InitArgs,
  Operation,
  OperationInit,
  OperationMethod,
  RequestError,
  ResponseMeta,
  SuccessData,
} from "./core/types.ts";
export { SDK_VERSION } from "./core/version.ts";
// One named type per schema of the contract (`Cart`, `Order`, `CheckoutCompleted`, ...), so hovers stay short.
export type * from "./generated/models.ts";
export type { Culture, OperationProblems } from "./generated/problems.ts";
export type { components, operations, paths, webhooks } from "./generated/schema.ts";
export type { CheckoutCartResult, Sections } from "./generated/sections.ts";
// Webhook verification (also at `@entrada/sdk/webhooks`); tree-shaken away when unused.
export type { WebhookVerificationErrorCode } from "./webhooks/errors.ts";
export { WebhookVerificationError } from "./webhooks/errors.ts";
export type { WebhookEvent, WebhookEventOf, WebhookEventType } from "./webhooks/events.ts";
export type { VerifyWebhookOptions, WebhookHeaders } from "./webhooks/verify.ts";
export { verifyWebhook } from "./webhooks/verify.ts";
