/** Client options and their validation: every mistake fails at construction, with a message that says the fix. */

import type { SessionTokenSource, TokenSource } from "./auth.ts";
import { EntradaConfigError } from "./errors.ts";
import { localeProblem, normalizeLocale } from "./language.ts";
import type { RetryOptions } from "./retry.ts";
import type { RetryBudgetOptions } from "./retry-budget.ts";
import { isBrowserLike } from "./runtime.ts";
import type { TokenLifetimeOptions, TokenStore } from "./token-cache.ts";
import type { FetchLike, Locale } from "./transport.ts";

/** OAuth scopes of the API: `Shop` (shop, sessions, survey, assets, webhooks, BI), `TERP` (entrance). */
export type Scope = "Shop" | "TERP";
const SCOPES: readonly string[] = ["Shop", "TERP"];

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

export type AuthConfig =
  | { kind: "client-credentials"; clientId: string; clientSecret: string; scope: string }
  | { kind: "token"; source: SessionTokenSource };

export interface ResolvedConfig {
  headers: Headers | undefined;
  baseUrl: string;
  tokenUrl: string;
  auth: AuthConfig;
  locale: string | undefined;
  fetch: FetchLike;
  timeoutMs: number;
  totalTimeoutMs: number | undefined;
}

export function fail(message: string): never {
  throw new EntradaConfigError(`createClient: ${message}`);
}

export function absoluteHttpUrl(name: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    fail(`"${name}" is required: the API's base address, e.g. "https://api.entrada.dev".`);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(
      `"${name}" must be an absolute http(s) URL such as "https://api.entrada.dev"; got ${JSON.stringify(value)}.`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    fail(`"${name}" must use http or https; got ${JSON.stringify(value)}.`);
  }
  if (url.search || url.hash || url.username || url.password) {
    fail(`"${name}" must not contain a query, fragment or credentials; got ${JSON.stringify(value)}.`);
  }
  return url.href.replace(/\/+$/, "");
}

function positive(name: string, value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    fail(`"${name}" must be a positive number of milliseconds; got ${JSON.stringify(value)}.`);
  }
  return value;
}

function tokenSource(name: string, value: unknown): TokenSource | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "function") return value as TokenSource;
  if (typeof value === "string" && value.trim() !== "") return value;
  fail(`"${name}" must be a non-empty string or a function returning one.`);
}

function scopeOf(value: unknown): string {
  if (value === undefined) return "Shop";
  const list = typeof value === "string" ? value.split(" ") : Array.isArray(value) ? value : [value];
  if (list.length === 0 || list.some((s) => typeof s !== "string" || !SCOPES.includes(s))) {
    fail(`"scope" must be "Shop", "TERP" or a list of them; got ${JSON.stringify(value)}.`);
  }
  return [...new Set(list as string[])].join(" ");
}

/** Validates options and fills in defaults. Throws `EntradaConfigError`. */
export function resolveConfig(options: EntradaClientOptions): ResolvedConfig {
  if (typeof options !== "object" || options === null)
    fail("options are required, e.g. { baseUrl, clientId, clientSecret }.");
  const baseUrl = absoluteHttpUrl("baseUrl", options.baseUrl);
  const tokenUrl =
    options.tokenUrl === undefined
      ? `${baseUrl}/connect/token`
      : absoluteHttpUrl("tokenUrl", options.tokenUrl);

  const hasId = options.clientId !== undefined;
  const hasSecret = options.clientSecret !== undefined;
  const accessToken = tokenSource("accessToken", options.accessToken);
  const sessionToken = tokenSource("sessionToken", options.sessionToken);
  const modes = [hasId || hasSecret, accessToken !== undefined, sessionToken !== undefined].filter(
    Boolean,
  ).length;
  if (modes > 1) fail(`pass client credentials, an "accessToken" or a "sessionToken", not several.`);

  let auth: AuthConfig;
  if (hasId || hasSecret) {
    if (typeof options.clientId !== "string" || options.clientId.trim() === "") {
      fail(`"clientId" is required with "clientSecret" and must be a non-empty string.`);
    }
    if (typeof options.clientSecret !== "string" || options.clientSecret.trim() === "") {
      fail(`"clientSecret" is required with "clientId" and must be a non-empty string.`);
    }
    if (isBrowserLike() && options.allowBrowserSecrets !== true) {
      fail(
        "refusing to use a client secret in a browser: every visitor could read it. Create a session token on " +
          'your server (client.sessions.create) and pass it here as "sessionToken", or set ' +
          '"allowBrowserSecrets: true" if this page is never public (an internal tool).',
      );
    }
    auth = {
      kind: "client-credentials",
      clientId: options.clientId,
      clientSecret: options.clientSecret,
      scope: scopeOf(options.scope),
    };
  } else if (accessToken !== undefined || sessionToken !== undefined) {
    auth = { kind: "token", source: (accessToken ?? sessionToken) as SessionTokenSource };
  } else {
    fail(
      `credentials are missing: pass "clientId" and "clientSecret" (server side), a "sessionToken" (browser), or an "accessToken".`,
    );
  }

  let locale: string | undefined;
  if (options.locale !== undefined) {
    locale = typeof options.locale === "string" ? normalizeLocale(options.locale) : undefined;
    if (locale === undefined) fail(localeProblem(options.locale));
  }

  let fetchImpl: FetchLike;
  if (options.fetch !== undefined) {
    if (typeof options.fetch !== "function") fail(`"fetch" must be a function.`);
    const given = options.fetch as FetchLike;
    // Called unbound: a browser's native fetch throws "Illegal invocation" when called as a method of another object.
    fetchImpl = (request, init) => given(request, init);
  } else {
    if (typeof globalThis.fetch !== "function") {
      fail(
        `no global fetch in this runtime: pass "fetch" (Node ≥ 20, browsers, Deno, Bun and workers have one).`,
      );
    }
    // Looked up per call so test tools that patch the global (msw) are honoured; called unbound-safe.
    fetchImpl = (request, init) => globalThis.fetch(request, init);
  }

  if (options.retry !== undefined && options.retry !== false) {
    const max = options.retry.maxRetries;
    if (max !== undefined && (!Number.isInteger(max) || max < 0 || max > 10)) {
      fail(`"retry.maxRetries" must be an integer from 0 to 10; got ${JSON.stringify(max)}.`);
    }
    for (const key of ["baseDelayMs", "maxDelayMs", "maxRetryAfterMs"] as const)
      positive(`retry.${key}`, options.retry[key]);
  }

  let headers: Headers | undefined;
  if (options.headers !== undefined) {
    try {
      headers = new Headers(options.headers);
    } catch (error) {
      fail(`"headers" must map header names to string values: ${(error as Error).message}`);
    }
  }

  return {
    headers,
    baseUrl,
    tokenUrl,
    auth,
    locale,
    fetch: fetchImpl,
    timeoutMs: positive("timeoutMs", options.timeoutMs) ?? 30_000,
    totalTimeoutMs: positive("totalTimeoutMs", options.totalTimeoutMs),
  };
}
