/** Client options and their validation: every mistake fails at construction, with a message that says the fix. */

import type { SessionTokenSource, TokenSource } from "./auth.ts";
import { EntradaConfigError } from "./errors.ts";
import { checkedLocale } from "./language.ts";
import type { RetryOptions } from "./retry.ts";
import type { RetryBudgetOptions } from "./retry-budget.ts";
import { isBrowserLike } from "./runtime.ts";
import type { ClientCredentials, TokenLifetimeOptions, TokenStore } from "./token-cache.ts";
import type { FetchLike, Locale } from "./transport.ts";

/** OAuth scopes of the API: `Shop` (shop, sessions, survey, assets, webhooks, BI), `TERP` (entrance). */
export type Scope = "Shop" | "TERP";

export interface EntradaClientOptions {
  /** Base address of the API, e.g. `https://api.entrada.dev` (no trailing path needed). */
  baseUrl: string;
  /** OAuth client id (server side only). */
  clientId?: string;
  /** OAuth client secret (server side only; refused in browsers unless `allowBrowserSecrets`). */
  clientSecret?: string;
  /** Scopes to request (default `Shop`). */
  scope?: Scope | readonly Scope[];
  /** A bearer token you obtained yourself, or a function returning one. */
  accessToken?: TokenSource;
  /**
   * A shop session token from `client.sessions.create()` on your server (browser use), or a function asking your
   * backend for one: called with `{}` at start and, once per rejection, with `{ rejectedToken, sessionId }` after a
   * `401`; it returns the token or `{ sessionToken, sessionId }` (so the backend can renew the same session).
   */
  sessionToken?: SessionTokenSource;
  /**
   * Default culture (`Accept-Language`): one the API serves (`de-CH`, `fr-CH`, `it-CH`, `en-GB`), or any other
   * `language-REGION` tag through `customLocale("de-AT")`. Beats an `accept-language` in `headers`.
   */
  locale?: Locale;
  /**
   * Headers sent with every request (a gateway's key, a tracing header). A call's own `headers` beat them, the
   * dedicated options (`locale`, `idempotencyKey`) beat both, and `Authorization` always comes from the credentials.
   */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global `fetch`, looked up at call time). */
  fetch?: FetchLike | typeof globalThis.fetch;
  /** Shares tokens across processes. */
  tokenStore?: TokenStore;
  /** Token lifetime rules (defaults: 50 min, 60 s margin, refresh 5 min ahead). */
  token?: TokenLifetimeOptions;
  /** Retry settings; `false` disables retries. `budget: false` disables the shared retry budget. */
  retry?: (RetryOptions & { budget?: RetryBudgetOptions | false }) | false;
  /** Timeout of one attempt in ms (default 30 000). */
  timeoutMs?: number;
  /** Deadline of a whole call, retries included, in ms (default none; use per call or an `AbortSignal`). */
  totalTimeoutMs?: number;
  /** Allow `clientSecret` where a DOM is present (internal tools only: the secret reaches every visitor). */
  allowBrowserSecrets?: boolean;
  /** Appended to the SDK's `User-Agent` (outside browsers). */
  userAgent?: string;
  /** Token endpoint (default `<baseUrl>/connect/token`). */
  tokenUrl?: string;
}

export interface ResolvedConfig {
  headers: Headers | undefined;
  baseUrl: string;
  tokenUrl: string;
  /** The client credentials (then `scope` is set), or else `source` is. */
  credentials: ClientCredentials | undefined;
  scope: string | undefined;
  source: SessionTokenSource | undefined;
  locale: string | undefined;
  fetch: FetchLike;
  /** Default (30 s) applied by the transport. */
  timeoutMs: number | undefined;
  totalTimeoutMs: number | undefined;
}

export function fail(message: string): never {
  throw new EntradaConfigError(`createClient: ${message}`);
}

/** The one message shape of a bad option: `"name" must be <what>; got <value>.` */
function expected(name: string, what: string, value: unknown): never {
  fail(`"${name}" must be ${what}; got ${JSON.stringify(value)}.`);
}

export function absoluteHttpUrl(name: string, value: unknown): string {
  let href = "";
  try {
    href = new URL(value as string).href;
  } catch {}
  // Normalized by URL: credentials show as `user:pass@` before the host, a query or fragment after a `?` or `#`.
  if (!/^https?:\/\/[^/?#@]+\/[^?#]*$/.test(href))
    fail(
      `"${name}" is required: an absolute http(s) URL (http or https; no query, fragment, credentials); got ${JSON.stringify(value)}.`,
    );
  return href.replace(/\/+$/, "");
}

function positive(name: string, value: unknown): number | undefined {
  if (value !== undefined && !((value as number) > 0 && Number.isFinite(value)))
    expected(name, "a positive number of milliseconds", value);
  return value as number | undefined;
}

export const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

function tokenSource(name: string, value: unknown): TokenSource | undefined {
  if (value === undefined || typeof value === "function" || nonEmpty(value)) return value as TokenSource;
  expected(name, "a non-empty string or a function returning one", value);
}

function scopeOf(value: unknown): string {
  const list = typeof value === "string" ? value.split(" ") : (value ?? ["Shop"]);
  if (!Array.isArray(list) || !list.length || list.some((s) => !["Shop", "TERP"].includes(s)))
    expected("scope", `"Shop", "TERP" or both`, value);
  return [...new Set(list)].join(" ");
}

/** Validates options and fills in defaults. Throws `EntradaConfigError`. */
export function resolveConfig(options: EntradaClientOptions): ResolvedConfig {
  // No options at all: `"baseUrl" is required`.
  const baseUrl = absoluteHttpUrl("baseUrl", options?.baseUrl);
  const tokenUrl = absoluteHttpUrl("tokenUrl", options.tokenUrl ?? `${baseUrl}/connect/token`);

  const { clientId, clientSecret, accessToken, sessionToken } = options;
  const credentials =
    clientId !== undefined || clientSecret !== undefined ? { clientId, clientSecret } : undefined;
  const source = tokenSource("accessToken", accessToken) ?? tokenSource("sessionToken", sessionToken);
  if (+!!credentials + +(accessToken !== undefined) + +(sessionToken !== undefined) > 1)
    fail(`pass client credentials, an "accessToken" or a "sessionToken", not several.`);
  if (credentials) {
    if (!nonEmpty(clientId) || !nonEmpty(clientSecret))
      fail(
        `"${nonEmpty(clientId) ? "clientSecret" : "clientId"}" is required: non-empty "clientId" and "clientSecret".`,
      );
    if (isBrowserLike() && options.allowBrowserSecrets !== true)
      fail(
        'refusing to use a client secret in a browser: pass a "sessionToken" (or "allowBrowserSecrets: true").',
      );
  } else if (source === undefined)
    fail(`credentials are missing: "clientId" + "clientSecret", "sessionToken" or "accessToken".`);

  const locale = checkedLocale(options.locale, fail);

  const given = options.fetch as FetchLike | undefined;
  if (typeof (given ?? globalThis.fetch) !== "function") expected("fetch", "a function", given);
  // Called unbound (a browser's native fetch throws "Illegal invocation" as a method of another object); the
  // global is looked up per call so test tools that patch it (msw) are honoured.
  const fetchImpl: FetchLike = (request, init) => (given ?? globalThis.fetch)(request, init);

  const retry = options.retry;
  if (retry) {
    const max = retry.maxRetries;
    if (max !== undefined && !(Number.isInteger(max) && max >= 0 && max <= 10))
      expected("retry.maxRetries", "an integer from 0 to 10", max);
    for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const)
      positive(`retry.${key}`, retry[key]);
  }

  let headers: Headers | undefined;
  try {
    if (options.headers !== undefined) headers = new Headers(options.headers);
  } catch (error) {
    fail(`"headers" must map header names to string values: ${(error as Error).message}`);
  }

  return {
    headers,
    baseUrl,
    tokenUrl,
    credentials: credentials as ClientCredentials | undefined,
    scope: credentials && scopeOf(options.scope),
    source: source as SessionTokenSource | undefined,
    locale,
    fetch: fetchImpl,
    timeoutMs: positive("timeoutMs", options.timeoutMs),
    totalTimeoutMs: positive("totalTimeoutMs", options.totalTimeoutMs),
  };
}
