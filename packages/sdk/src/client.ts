/**
 * `createClient`: validated configuration, one transport (tokens, idempotency, retries, language) and one typed
 * section per tag of the contract on top of it. (The openapi-fetch client is `@entrada/sdk/raw`'s `rawClient`.)
 */

import { type SessionTokenSource, staticAuth } from "./core/auth.ts";
import { authenticatedFetch, type EntradaFetchInit } from "./core/authenticated-fetch.ts";
import { type EntradaClientOptions, nonEmpty, resolveConfig } from "./core/config.ts";
import { EntradaConfigError } from "./core/errors.ts";
import { createTokenRequester, formBody } from "./core/oauth.ts";
import { operationFactory, withOrThrow } from "./core/operation.ts";

export type { EntradaFetchInit } from "./core/authenticated-fetch.ts";

import { type ClientCredentials, type TokenCache, tokenCache } from "./core/token-cache.ts";
import {
  type AuthProvider,
  type CallOptions,
  createTransport,
  type Locale,
  type Middleware,
  TRANSPORT,
} from "./core/transport.ts";
import type { EntradaResult, EntradaSuccess } from "./core/types.ts";
import type { Session } from "./generated/models.ts";
import type { OperationProblems } from "./generated/problems.ts";
import type { operations } from "./generated/schema.ts";
import { type SessionsSection as GeneratedSessions, type Sections, sections } from "./generated/sections.ts";

/** The typed methods of one section (tag) of the contract, named by operationId. */
export type Section<S extends keyof Sections> = Sections[S];

type CreateSessionBody = NonNullable<
  operations["createSession"]["requestBody"]
>["content"]["application/json"];
type SessionProblem = OperationProblems["createSession"];

/** `client.sessions.renew`'s body: the session's browser origins (omitted: the session keeps its own). */
export type RenewSessionBody = Omit<CreateSessionBody, "sessionId">;

type SessionCall<Args extends unknown[]> = {
  (...args: Args): Promise<EntradaResult<Session, SessionProblem>>;
  orThrow(...args: Args): Promise<EntradaSuccess<Session>>;
};

export interface SessionsSection extends GeneratedSessions {
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

export type EntradaClient = Omit<Sections, "sessions"> & {
  readonly sessions: SessionsSection;
  /**
   * Authenticated `fetch` (token, language, idempotency key, retries) for URLs outside the typed sections.
   * Rejects with an `EntradaError` (network, timeout, aborted, oauth, invalid-argument); HTTP errors resolve.
   */
  fetch(input: string | URL | Request, init?: EntradaFetchInit): Promise<Response>;
  /** A valid bearer token (cached; requested once for any number of concurrent callers). */
  getAccessToken(): Promise<string>;
  /** Rotates client credentials; calls in flight are not affected. */
  setCredentials(credentials: ClientCredentials, options?: { dropCachedToken?: boolean }): void;
  /** The default culture (`Accept-Language`), if any. */
  readonly locale: Locale | undefined;
  /** The API's base address, as configured (no trailing slash). */
  readonly baseUrl: string;
  /**
   * Adds middleware to every later attempt of every call of this client (a retry passes through it again):
   * `onRequest`, `onResponse`, `onError`, as openapi-fetch's. Ready ones: `@entrada/sdk/logger`, `@entrada/sdk/otel`.
   */
  use(...middleware: Middleware[]): void;
  /** Removes middleware added with `use` (or the `middleware` option). */
  eject(...middleware: Middleware[]): void;
};

/**
 * Creates a client. Throws `EntradaConfigError` for invalid options.
 * @example
 * const client = createClient({ baseUrl, clientId, clientSecret, scope: "Shop", locale: "de-CH" });
 * const { data, error } = await client.shop.getEvent({ params: { path: { eventId } } });
 * if (error) console.error(error.kind, error.status, error.logId);
 */
export function createClient(options: EntradaClientOptions): EntradaClient {
  const { credentials: given, source, scope, tokenUrl, transport: settings } = resolveConfig(options);
  // Replaced by `setCredentials`; the token section's form body (`createToken`) reads the latest.
  let credentials = given;
  const baseUrl = settings.baseUrl;
  const transport = createTransport({
    ...settings,
    // Client credentials: a token cache whose token request is a plain call on the token transport.
    auth: (tokenTransport) =>
      given
        ? tokenCache({
            ...options.token,
            credentials: given,
            requestToken: createTokenRequester(tokenTransport, tokenUrl, scope as string),
            store: options.tokenStore,
            storeKey: `entrada:token:${baseUrl}:${given.clientId}:${scope}`,
          })
        : staticAuth(source as SessionTokenSource),
  });
  const auth = transport.auth as AuthProvider;
  const cache = given && (auth as TokenCache);

  const client: Record<string | symbol, unknown> = {
    [TRANSPORT]: transport,
    locale: settings.locale,
    baseUrl,
    use: transport.use,
    eject: transport.eject,
    fetch: authenticatedFetch(transport, baseUrl),
    getAccessToken: () => auth.peek() ?? auth.get(),
    setCredentials(next: ClientCredentials, opts?: { dropCachedToken?: boolean }) {
      // Only a client created with credentials can rotate them.
      if (!cache || !nonEmpty(next?.clientId) || !nonEmpty(next.clientSecret))
        throw new EntradaConfigError(
          "setCredentials: needs non-empty strings, on a client made with credentials",
        );
      credentials = { ...next };
      cache.setCredentials(credentials, opts);
    },
    // The token operation authenticates the client with HTTP Basic (RFC 6749 §2.3.1), never with a bearer token.
    ...sections(operationFactory({ transport, baseUrl, form: formBody(() => credentials) })),
  };

  // `biFeed(client.fetch, { baseUrl })` rides on this transport rather than wrapping it in another one.
  (client.fetch as Record<symbol, unknown>)[TRANSPORT] = transport;

  const sessions = client.sessions as Record<string, unknown> & Pick<GeneratedSessions, "createSession">;
  const create = (body: CreateSessionBody = {}, callOptions?: CallOptions) =>
    sessions.createSession({ ...callOptions, body });
  sessions.create = withOrThrow(create);
  sessions.renew = withOrThrow(
    async (sessionId: string, body?: RenewSessionBody, callOptions?: CallOptions) => {
      const result = await create({ ...body, sessionId }, callOptions);
      // The session is gone (its carts too): a new one, under a key of its own (the body differs).
      return result.error?.kind === "problem" && result.error.status === 404
        ? create(body, { ...callOptions, idempotencyKey: undefined })
        : result;
    },
  );

  return client as unknown as EntradaClient;
}
