/**
 * OAuth client-credentials token cache.
 *
 * - One token request at a time: any number of concurrent callers, on a cold cache or at expiry, share one
 *   in-flight request (single flight).
 * - A token is used for about 50 minutes and never past `expires_in` minus a safety margin, measured from when
 *   the request was sent (so a slow answer cannot stretch its life).
 * - Ahead of expiry, the first caller starts a background refresh and keeps using the still-valid token.
 * - `invalidate(token)` (after a `401 invalid_token`) drops exactly that token, never a newer one.
 * - Credentials can be swapped while requests are in flight; a token request that fails with `invalid_client`
 *   because the credentials changed under it is repeated once with the new ones.
 * - An optional async `TokenStore` shares tokens across processes.
 */

import { OAuthError } from "./errors.ts";

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** What one token request yields. */
export interface TokenGrant {
  accessToken: string;
  /** Lifetime in seconds, as sent by the server (`expires_in`). */
  expiresIn: number;
  scope?: string | undefined;
}

/** A token as kept in a `TokenStore` (epoch milliseconds). */
export interface StoredToken {
  accessToken: string;
  /** Do not use the token at or after this instant (safety margin already applied). */
  expiresAt: number;
  /** Start refreshing at this instant. */
  refreshAt?: number | undefined;
  scope?: string | undefined;
}

/**
 * Shares tokens between processes (Redis, a database, KV). Keys identify base URL, client id and scope; the
 * secret never appears in them. Errors thrown by a store are ignored (the cache falls back to requesting).
 */
export interface TokenStore {
  get(key: string): Promise<StoredToken | null | undefined>;
  set(key: string, token: StoredToken): Promise<void>;
  /**
   * Forgets the token under `key`; with `accessToken`, only while it is still that token (so a newer one another
   * process stored meanwhile stays). The cache reads first and compares too, for stores that ignore the argument.
   */
  delete?(key: string, accessToken?: string): Promise<void>;
  /**
   * Runs `work` holding a lock on `key` shared by every process using the store (a PostgreSQL advisory lock, a
   * lease row): with it, N cold processes make one token request, and a refresh is single-flight across processes.
   */
  exclusive?<T>(key: string, work: () => Promise<T>): Promise<T>;
}

export interface TokenLifetimeOptions {
  /** Longest use of one token in ms (default 50 minutes). */
  maxAgeMs?: number;
  /** Stop using a token this long before `expires_in` ends (default 60 s, at most 10 % of the lifetime). */
  safetyMarginMs?: number;
  /** Start a background refresh this long before the token's end of use (default 5 min, at most 20 %). */
  refreshAheadMs?: number;
}

/** When to stop using, and when to start refreshing, a token requested at `sentAt`. Pure. */
export function tokenLifetime(
  sentAt: number,
  expiresInSeconds: number,
  { maxAgeMs = 50 * 60_000, safetyMarginMs = 60_000, refreshAheadMs = 5 * 60_000 }: TokenLifetimeOptions = {},
): { expiresAt: number; refreshAt: number } {
  const serverLifetime = Math.max(0, expiresInSeconds * 1000);
  const margin = Math.min(safetyMarginMs, serverLifetime * 0.1);
  const lifetime = Math.max(0, Math.min(maxAgeMs, serverLifetime - margin));
  const ahead = Math.min(refreshAheadMs, lifetime * 0.2);
  return { expiresAt: sentAt + lifetime, refreshAt: sentAt + lifetime - ahead };
}

export interface TokenCacheOptions extends TokenLifetimeOptions {
  credentials: ClientCredentials;
  /** Performs one token request (with its own retries); the cache adds single flight and lifetime rules. */
  requestToken: (credentials: ClientCredentials) => Promise<TokenGrant>;
  store?: TokenStore | undefined;
  /** Store key; derive it from base URL, client id and scope. */
  storeKey?: string | undefined;
  now?: () => number;
}

interface CachedToken {
  accessToken: string;
  expiresAt: number;
  refreshAt: number;
}

/** The cache's side of the transport's `AuthProvider`, plus credential rotation. */
export interface TokenCache {
  /** The cached token when it is usable now, without waiting; starts a background refresh when due. */
  peek(): string | undefined;
  /** A usable token: the cached one, or the result of the single in-flight request. */
  get(): Promise<string>;
  /** Drops `accessToken` after the server rejected it (a newer token is kept); true: asking again may help. */
  invalidate(accessToken: string): true;
  /** Swaps the client credentials; calls in flight keep their token, later token requests use the new ones. */
  setCredentials(credentials: ClientCredentials, options?: { dropCachedToken?: boolean }): void;
}

export function tokenCache(options: TokenCacheOptions): TokenCache {
  const { store, storeKey, requestToken, now = Date.now } = options;
  let credentials = options.credentials;
  let token: CachedToken | undefined;
  let inflight: Promise<CachedToken> | undefined;
  let backgroundPausedUntil = 0;
  /** The last token the server rejected; never adopted again from the store. */
  let rejected: string | undefined;

  /** Runs a store operation; a store that throws or rejects is ignored (the cache falls back to requesting). */
  const use = <T>(operation: () => Promise<T> | T): Promise<T | undefined> =>
    Promise.resolve()
      .then(operation)
      .catch(() => undefined);

  /** The shared token, adopted while it is not yet due for refresh (and never one the server rejected). */
  const adopt = async (): Promise<CachedToken | undefined> => {
    const stored = store && storeKey ? await use(() => store.get(storeKey)) : undefined;
    if (!stored) return;
    const at = now();
    const refreshAt = stored.refreshAt ?? stored.expiresAt;
    if (stored.accessToken === rejected || at >= refreshAt || at >= stored.expiresAt) return;
    token = { ...stored, refreshAt };
    return token;
  };

  const obtain = async (): Promise<CachedToken> => {
    // Without a store the request starts in the caller's tick (nothing to read first).
    if (!store || !storeKey) return request();
    const shared = await adopt();
    if (shared) return shared;
    if (!store.exclusive) return request();
    // Across processes: one holds the store's lock and requests; the others, once they get it, find its token.
    let locked = false;
    try {
      return await store.exclusive(storeKey, async () => {
        locked = true;
        return (await adopt()) ?? (await request());
      });
    } catch (error) {
      // A store that cannot lock is ignored like any store failure; an error of the request itself is the caller's.
      if (locked) throw error;
      return request();
    }
  };

  const request = async (): Promise<CachedToken> => {
    // The instant the token request is sent: a token's life is measured from it.
    const sentAt = now();
    const sent = credentials;
    let grant: TokenGrant;
    try {
      grant = await requestToken(sent);
    } catch (error) {
      // The credentials changed while the request was under way: repeat it once with the new ones.
      if (credentials === sent || !(error instanceof OAuthError) || error.error !== "invalid_client")
        throw error;
      grant = await requestToken(credentials);
    }
    const fresh: CachedToken = {
      accessToken: grant.accessToken,
      ...tokenLifetime(sentAt, grant.expiresIn, options),
    };
    token = fresh;
    if (store && storeKey) await use(() => store.set(storeKey, { ...fresh, scope: grant.scope }));
    return fresh;
  };

  /** The single in-flight token request (the store first, then the token endpoint). */
  const refresh = (): Promise<CachedToken> => {
    inflight ??= obtain().finally(() => {
      inflight = undefined;
    });
    return inflight;
  };

  const peek = (): string | undefined => {
    const at = now();
    if (!token || at >= token.expiresAt) return;
    if (at >= token.refreshAt && !inflight && at >= backgroundPausedUntil)
      refresh().catch(() => {
        // A failed background refresh is tried again 5 s later at the earliest.
        backgroundPausedUntil = now() + 5_000;
      });
    return token.accessToken;
  };

  return {
    peek,
    get: async () => peek() ?? (await refresh()).accessToken,
    invalidate(accessToken) {
      rejected = accessToken;
      if (token?.accessToken === accessToken) {
        token = undefined;
        if (store?.delete && storeKey)
          use(async () => {
            if ((await store.get(storeKey))?.accessToken === accessToken)
              await store.delete?.(storeKey, accessToken);
          });
      }
      return true;
    },
    setCredentials(next, { dropCachedToken } = {}) {
      credentials = next;
      if (dropCachedToken) token = undefined;
    },
  };
}
