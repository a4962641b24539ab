/**
 * `createClient`: validated configuration, one transport (tokens, idempotency, retries, language), the raw
 * openapi-fetch client on top of it, and one typed section per tag of the contract.
 */

import createFetchClient, { type Client } from "openapi-fetch";
import { cacheAuth, staticAuth } from "./core/auth.ts";
import { type EntradaClientOptions, resolveConfig } from "./core/config.ts";
import { Deadlines } from "./core/deadlines.ts";
import { createTokenRequester } from "./core/oauth.ts";
import { createOperationMethod, parseOperationSpec } from "./core/operation.ts";
import { DEFAULT_RETRY, resolveRetryPolicy } from "./core/retry.ts";
import { RetryBudget } from "./core/retry-budget.ts";
import { isBrowserLike } from "./core/runtime.ts";
import { type ClientCredentials, TokenCache } from "./core/token-cache.ts";
import { type CallOptions, Transport } from "./core/transport.ts";
import type { EntradaResult, EntradaSuccess, Operation } from "./core/types.ts";
import { SDK_VERSION } from "./core/version.ts";
import { operationTable } from "./generated/operations.ts";
import type { operations, paths } from "./generated/schema.ts";

type Table = typeof operationTable;

/** One typed method per operation of a section, named by its operationId. */
export type Section<S extends keyof Table> = {
  readonly [Id in keyof Table[S] & keyof operations]: Operation<operations[Id]>;
};

type CreateSessionBody = NonNullable<
  operations["createSession"]["requestBody"]
>["content"]["application/json"];
type CreateSessionData = operations["createSession"]["responses"][201]["content"]["application/json"];

/** `client.sessions.renew`'s body: the session's browser origins (omitted: the session keeps its own). */
export type RenewSessionBody = Omit<CreateSessionBody, "sessionId">;

type SessionCall<Args extends unknown[]> = {
  (...args: Args): Promise<EntradaResult<CreateSessionData>>;
  orThrow(...args: Args): Promise<EntradaSuccess<CreateSessionData>>;
};

export interface SessionsSection extends Section<"sessions"> {
  /**
   * Creates a short-lived shop session token for the browser (server side, scope `Shop`); with `sessionId`, a new
   * token for that existing session (its carts stay visible). Keep `data.sessionId` with the visitor.
   * @example
   * const { data } = await client.sessions.create.orThrow({ allowedOrigins: ["https://shop.example"] });
   * // hand { sessionToken: data.sessionToken, sessionId: data.sessionId } to the embedded shop
   */
  create: SessionCall<[body?: CreateSessionBody, options?: CallOptions]>;
  /**
   * Renews a visitor's shop session when its token expired: a new token for the same session, so the cart, order
   * and payment stay visible. When the API no longer knows the session (`404`: expired long ago), creates a new
   * one with `body` instead — compare `data.sessionId` with yours to tell. Another client's session stays `403`.
   * Renew only the session you stored for the visitor; never one a browser names unchecked.
   * @example
   * const { data } = await client.sessions.renew.orThrow(visitor.sessionId, { allowedOrigins });
   * visitor.sessionId = data.sessionId; // unchanged unless the session had expired
   */
  renew: SessionCall<[sessionId: string, body?: RenewSessionBody, options?: CallOptions]>;
}

/** Per-call options of `client.fetch`. */
export type EntradaFetchInit = RequestInit & Omit<CallOptions, "signal">;

export type EntradaClient = { readonly [S in Exclude<keyof Table, "sessions">]: Section<S> } & {
  readonly sessions: SessionsSection;
  /** The openapi-fetch client (`GET("/shop/v1/...")` style), running through the same transport. */
  readonly raw: Client<paths>;
  /** Authenticated `fetch` (token, language, idempotency key, retries) for URLs outside the typed sections. */
  fetch(input: string | URL | Request, init?: EntradaFetchInit): Promise<Response>;
  /** A valid bearer token (cached; requested once for any number of concurrent callers). */
  getAccessToken(): Promise<string>;
  /** Rotates client credentials; calls in flight are not affected. */
  setCredentials(credentials: ClientCredentials, options?: { dropCachedToken?: boolean }): void;
  /** The default culture (`Accept-Language`), if any. */
  readonly locale: string | undefined;
};

/**
 * Creates a client. Throws `EntradaConfigError` for invalid options.
 * @example
 * const client = createClient({ baseUrl, clientId, clientSecret, scope: "Shop", locale: "de-CH" });
 * const { data, error } = await client.shop.getEvent({ params: { path: { eventId } } });
 * if (error) console.error(error.kind, error.status, error.logId);
 */
export function createClient(options: EntradaClientOptions): EntradaClient {
  const config = resolveConfig(options);
  const retryOptions = options.retry === false ? false : options.retry;
  const budgetOptions = retryOptions === false ? false : retryOptions?.budget;
  const transport = new Transport({
    fetch: config.fetch,
    auth: undefined,
    locale: config.locale,
    userAgent: isBrowserLike()
      ? undefined
      : `entrada-sdk-js/${SDK_VERSION}${options.userAgent ? ` ${options.userAgent}` : ""}`,
    timeoutMs: config.timeoutMs,
    totalTimeoutMs: config.totalTimeoutMs,
    retry: resolveRetryPolicy(DEFAULT_RETRY, retryOptions),
    budget: budgetOptions === false ? undefined : new RetryBudget(budgetOptions),
    deadlines: new Deadlines(),
    origin: `${new URL(config.baseUrl).origin}/`,
    now: Date.now,
    random: Math.random,
  });

  let cache: TokenCache | undefined;
  const auth = config.auth;
  if (auth.kind === "client-credentials") {
    cache = new TokenCache({
      ...options.token,
      credentials: { clientId: auth.clientId, clientSecret: auth.clientSecret },
      requestToken: createTokenRequester(transport, config.tokenUrl, auth.scope),
      store: options.tokenStore,
      storeKey: `entrada:token:${config.baseUrl}:${auth.clientId}:${auth.scope}`,
    });
    transport.config.auth = cacheAuth(cache);
  } else {
    transport.config.auth = staticAuth(auth.source);
  }
  const authProvider = transport.config.auth;

  // Default headers go on every request openapi-fetch builds (sections and raw); a call's own headers win.
  const defaultHeaders: Record<string, string> = {};
  if (config.locale) defaultHeaders["accept-language"] = config.locale;
  if (transport.config.userAgent) defaultHeaders["user-agent"] = transport.config.userAgent;
  const raw = createFetchClient<paths>({
    baseUrl: config.baseUrl,
    headers: defaultHeaders,
    fetch: (request) => transport.send(request, {}, { attempts: 0, prepared: true }),
  });

  const client: Record<string, unknown> = {
    raw,
    locale: config.locale,
    fetch(input: string | URL | Request, init: EntradaFetchInit = {}) {
      const { locale, idempotencyKey, timeoutMs, totalTimeoutMs, retry, ...requestInit } = init;
      const url =
        typeof input === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(input)
          ? `${config.baseUrl}${input.startsWith("/") ? "" : "/"}${input}`
          : input;
      const request = new Request(url, requestInit);
      return transport.send(
        request,
        { locale, idempotencyKey, timeoutMs, totalTimeoutMs, retry },
        { attempts: 0 },
      );
    },
    getAccessToken: () => authProvider.peek() ?? authProvider.get(),
    setCredentials(credentials: ClientCredentials, opts?: { dropCachedToken?: boolean }) {
      if (!cache)
        throw new TypeError("setCredentials: this client was not created with clientId and clientSecret");
      if (
        typeof credentials?.clientId !== "string" ||
        typeof credentials.clientSecret !== "string" ||
        !credentials.clientId ||
        !credentials.clientSecret
      ) {
        throw new TypeError("setCredentials: clientId and clientSecret must be non-empty strings");
      }
      cache.setCredentials({ clientId: credentials.clientId, clientSecret: credentials.clientSecret }, opts);
    },
  };

  const rawClient = raw as unknown as Client<Record<string, never>>;
  for (const [section, ops] of Object.entries(operationTable)) {
    const methods: Record<string, unknown> = {};
    for (const [operationId, spec] of Object.entries(ops as Record<string, string>)) {
      methods[operationId] = createOperationMethod(
        rawClient,
        transport,
        parseOperationSpec(operationId, spec),
      );
    }
    client[section] = methods;
  }

  const sessions = client.sessions as Record<string, unknown> & {
    createSession: Operation<operations["createSession"]>;
  };
  const create = (body: CreateSessionBody = {}, callOptions: CallOptions = {}) =>
    sessions.createSession({ ...callOptions, body });
  create.orThrow = (body: CreateSessionBody = {}, callOptions: CallOptions = {}) =>
    sessions.createSession.orThrow({ ...callOptions, body });
  const renew = async (sessionId: string, body: RenewSessionBody = {}, callOptions: CallOptions = {}) => {
    const result = await create({ ...body, sessionId }, callOptions);
    // The session is gone (its carts too): a new one, under a key of its own (the body differs).
    return result.error?.kind === "problem" && result.error.status === 404
      ? create(body, { ...callOptions, idempotencyKey: undefined })
      : result;
  };
  renew.orThrow = async (...args: Parameters<typeof renew>) => {
    const result = await renew(...args);
    if (result.error) throw result.error;
    return result;
  };
  sessions.create = create;
  sessions.renew = renew;

  return client as unknown as EntradaClient;
}
