/** Client options and their validation: every mistake fails at construction, with a message that says the fix. */

import type { SessionTokenSource, TokenSource } from "./auth.ts";
import { EntradaConfigError } from "./errors.ts";
import { checkedLocale } from "./locale.ts";
import type { RetryBudgetOptions } from "./retry-budget.ts";
import type { RetryOptions } from "./retry-policy.ts";
import { isBrowserLike as browser, productUserAgent } from "./runtime.ts";
import type { ClientCredentials, TokenLifetimeOptions, TokenStore } from "./token-cache.ts";
import type { FetchLike, Locale, Middleware, TransportOptions } from "./transport.ts";

/** OAuth scopes of the API: `Shop` (shop, sessions, survey, assets, webhooks, BI), `TERP` (entrance). */
export type Scope = "Shop" | "TERP";

/** The options every entry point (`createClient`, `createShopClient`, `biFeed`) builds its transport from. */
export interface TransportSettings {
  /** Base address of the API, e.g. `https://api.entrada.dev` (no trailing path needed). */
  baseUrl: string;
  /**
   * Default culture (`Accept-Language`): one the API serves (`de-CH`, `fr-CH`, `it-CH`, `en-GB`), or any other
   * `language-REGION` tag through `customLocale("de-AT")`. Beats an `accept-language` in `headers`.
   */
  locale?: Locale | undefined;
  /**
   * Headers sent with every request (a gateway's key, a tracing header). A call's own `headers` beat them, the
   * dedicated options (`locale`, `idempotencyKey`) beat both, and `Authorization` always comes from the credentials.
   */
  headers?: Record<string, string> | undefined;
  /** The fetch to use (default: the global `fetch`, looked up at call time). */
  fetch?: FetchLike | typeof globalThis.fetch | undefined;
  /** Retry settings; `false` disables retries. `budget: false` disables the shared retry budget. */
  retry?: (RetryOptions & { budget?: RetryBudgetOptions | false }) | false | undefined;
  /** Timeout of one attempt in ms (default 30 000). */
  timeoutMs?: number | undefined;
  /** Deadline of a whole call, retries included, in ms (default none; use per call or an `AbortSignal`). */
  totalTimeoutMs?: number | undefined;
  /** Middleware run on every attempt (more with `client.use(...)`): logging, tracing, headers of your own. */
  middleware?: readonly Middleware[] | undefined;
  /** Appended to the SDK's `User-Agent` (outside browsers). */
  userAgent?: string | undefined;
}

export interface EntradaClientOptions extends TransportSettings {
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
  /** Shares tokens across processes. */
  tokenStore?: TokenStore;
  /** Token lifetime rules (defaults: 50 min, 60 s margin, refresh 5 min ahead). */
  token?: TokenLifetimeOptions;
  /** Allow `clientSecret` where a DOM is present (internal tools only: the secret reaches every visitor). */
  allowBrowserSecrets?: boolean;
  /** Token endpoint (default `<baseUrl>/connect/token`). */
  tokenUrl?: string;
}

/** The entry point whose options are checked; every message starts with its name. */
export type Entry = "createClient" | "createShopClient" | "biFeed";

export function configError(entry: Entry, message: string): never {
  throw new EntradaConfigError(`${entry}: ${message}`);
}

/** The one message shape of a bad option: `"name" must be <what>; got <value>.` */
export function expected(entry: Entry, name: string, what: string, value: unknown): never {
  configError(entry, `"${name}" must be ${what}; got ${JSON.stringify(value)}.`);
}

export function absoluteHttpUrl(entry: Entry, name: string, value: unknown): string {
  let href = "";
  try {
    href = new URL(value as string).href;
  } catch {}
  // Normalized by URL: credentials show as `user:pass@` before the host, a query or fragment after a `?` or `#`.
  if (!/^https?:\/\/[^/?#@]+\/[^?#]*$/.test(href))
    configError(
      entry,
      `"${name}" is required: an absolute http(s) URL without query, fragment or credentials; got ${JSON.stringify(value)}.`,
    );
  return href.replace(/\/+$/, "");
}

/** What an option must be: its test, and the words the message says it with. */
type Rule = readonly [test: (value: unknown) => boolean, what: string];

const positiveMs: Rule = [
  (value) => (value as number) > 0 && Number.isFinite(value),
  "a positive number of milliseconds",
];

/**
 * The options every entry point checks alike, each with its rule (a dotted name is a field of an object option).
 * An option left out (`undefined`) is not checked: its default applies.
 */
const rules: Record<string, Rule> = {
  timeoutMs: positiveMs,
  totalTimeoutMs: positiveMs,
  "retry.maxRetries": [
    (value) => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 10,
    "an integer from 0 to 10",
  ],
  "retry.baseDelayMs": positiveMs,
  "retry.maxDelayMs": positiveMs,
  "retry.maxRetryAfterMs": positiveMs,
  middleware: [
    (value) => Array.isArray(value) && value.every((m) => typeof m === "object" && m !== null),
    "an array of middleware",
  ],
};

export const nonEmpty = (value: unknown): value is string => typeof value === "string" && value.trim() !== "";

/**
 * The one validator of the options every entry point shares: each mistake is an `EntradaConfigError` naming the
 * entry and the fix. Returns what `createTransport` takes.
 */
export function transportSettings(
  entry: Entry,
  options: TransportSettings,
  product?: string,
): TransportOptions {
  // No options at all: `"baseUrl" is required`.
  const baseUrl = absoluteHttpUrl(entry, "baseUrl", options?.baseUrl);
  const locale = checkedLocale(options.locale, (problem) => configError(entry, problem));

  const given = options.fetch as FetchLike | undefined;
  if (typeof (given ?? globalThis.fetch) !== "function") expected(entry, "fetch", "a function", given);

  for (const [name, [test, what]] of Object.entries(rules)) {
    const value = name
      .split(".")
      .reduce<unknown>((parent, key) => (parent as Record<string, unknown> | undefined)?.[key], options);
    if (value !== undefined && !test(value)) expected(entry, name, what, value);
  }

  let headers: Headers | undefined;
  try {
    if (options.headers !== undefined) headers = new Headers(options.headers);
    // `Authorization` belongs to the credentials, never to the client-wide headers.
    headers?.delete("authorization");
  } catch (error) {
    configError(entry, `"headers" must map header names to string values: ${(error as Error).message}`);
  }

  return {
    baseUrl,
    fetch: given,
    locale,
    headers,
    userAgent: browser() ? undefined : productUserAgent([product, options.userAgent]),
    timeoutMs: options.timeoutMs,
    totalTimeoutMs: options.totalTimeoutMs,
    retry: options.retry,
    middleware: options.middleware,
  };
}

function tokenSource(name: string, value: unknown): TokenSource | undefined {
  if (value === undefined || typeof value === "function" || nonEmpty(value)) return value as TokenSource;
  expected("createClient", name, "a non-empty string or a function returning one", value);
}

function scopeOf(value: unknown): string {
  const list = typeof value === "string" ? value.split(" ") : (value ?? ["Shop"]);
  if (!Array.isArray(list) || !list.length || list.some((s) => !["Shop", "TERP"].includes(s)))
    expected("createClient", "scope", `"Shop", "TERP" or both`, value);
  return [...new Set(list)].join(" ");
}

/** `createClient`'s options: the shared ones, then the credentials. */
export interface ResolvedConfig {
  transport: TransportOptions;
  tokenUrl: string;
  /** The client credentials (then `scope` is set), or else `source` is. */
  credentials: ClientCredentials | undefined;
  scope: string | undefined;
  source: SessionTokenSource | undefined;
}

/** Validates `createClient`'s options and fills in defaults. Throws `EntradaConfigError`. */
export function resolveConfig(options: EntradaClientOptions): ResolvedConfig {
  const transport = transportSettings("createClient", options);
  const fail = (message: string) => configError("createClient", message);
  const tokenUrl = absoluteHttpUrl(
    "createClient",
    "tokenUrl",
    options.tokenUrl ?? `${transport.baseUrl}/connect/token`,
  );

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
    if (browser() && options.allowBrowserSecrets !== true)
      fail(
        'refusing to use a client secret in a browser: pass a "sessionToken" (or "allowBrowserSecrets: true").',
      );
  } else if (source === undefined)
    fail(`credentials are missing: "clientId" + "clientSecret", "sessionToken" or "accessToken".`);

  return {
    transport,
    tokenUrl,
    credentials: credentials as ClientCredentials | undefined,
    scope: credentials && scopeOf(options.scope),
    source: source as SessionTokenSource | undefined,
  };
}
