import { ShopError } from "./problem";

export interface SessionTokenOptions {
  /** A session token the host's backend created (`POST /shop/v1/sessions`). */
  sessionToken?: string | undefined;
  /** Asks the host's backend for a fresh session token; called at start (when no token is given) and on expiry. */
  fetchSessionToken?: FetchSessionToken | undefined;
}

export interface SessionTokenRequest {
  /**
   * The token the API just rejected (expired or revoked). A backend that keeps one shop session per visitor
   * (so a return from a payment page or a reload sees the same cart) replaces its cached token when it
   * matches; without it, it may hand out its current one.
   */
  rejectedToken?: string;
  /**
   * With `rejectedToken`: the shop session of the rejected token, when `fetchSessionToken` returned it
   * (`{ sessionToken, sessionId }`). The backend renews that session (`POST /shop/v1/sessions` with
   * `{ sessionId }`) so the visitor's cart stays visible to the new token — after checking it is the session it
   * keeps for this visitor (session ids are not secrets).
   */
  sessionId?: string;
}

/** What `fetchSessionToken` may return besides a bare token: e.g. the `createSession` response as is. */
export interface SessionTokenGrant {
  sessionToken: string;
  /** The shop session (`Session.sessionId`); the widget passes it back when it asks for a renewal. */
  sessionId?: string | undefined;
}

export type FetchSessionToken = (request: SessionTokenRequest) => Promise<string | SessionTokenGrant>;

/**
 * Holds the widget's session token. Parallel requests share one fetch; a token the server rejected is
 * replaced at most once per rejection (the caller retries once, then reports `session-expired`).
 */
export class SessionTokenSource {
  #token: string | undefined;
  #fetcher: FetchSessionToken | undefined;
  #inflight: Promise<string> | undefined;
  #rejected: string | undefined;
  #sessionId: string | undefined;

  constructor(options: SessionTokenOptions) {
    this.#token = options.sessionToken;
    this.#fetcher = options.fetchSessionToken;
  }

  /** Apply `update({ sessionToken, fetchSessionToken })` from the host. */
  configure(options: SessionTokenOptions): void {
    if (options.sessionToken !== undefined && options.sessionToken !== this.#token) {
      this.#token = options.sessionToken;
    }
    if (options.fetchSessionToken !== undefined) this.#fetcher = options.fetchSessionToken;
  }

  /** The server answered 401 to `token`: forget it, so the next `get()` fetches a new one (or fails). */
  reject(token: string): void {
    if (this.#token === token) {
      this.#token = undefined;
      this.#rejected = token;
    }
  }

  async get(): Promise<string> {
    if (this.#token !== undefined) return this.#token;
    return this.#fetch(this.#rejected);
  }

  /**
   * The server rejected `rejected`. Returns a different token to retry with, or throws `session-expired`
   * when there is no way to get one.
   */
  async renew(rejected: string): Promise<string> {
    if (this.#token !== undefined && this.#token !== rejected) return this.#token;
    if (this.#fetcher === undefined) {
      throw new ShopError("session-expired", "session token rejected; no fetchSessionToken", {
        status: 401,
      });
    }
    this.#token = undefined;
    return this.#fetch(rejected);
  }

  #fetch(rejectedToken?: string): Promise<string> {
    const fetcher = this.#fetcher;
    if (fetcher === undefined) {
      return Promise.reject(
        new ShopError("session-expired", "no sessionToken or fetchSessionToken", {
          status: 401,
        }),
      );
    }
    if (this.#inflight === undefined) {
      this.#inflight = (async () => {
        try {
          const request: SessionTokenRequest = {};
          if (rejectedToken !== undefined) {
            request.rejectedToken = rejectedToken;
            if (this.#sessionId) request.sessionId = this.#sessionId;
          }
          const grant = await fetcher(request);
          const token = typeof grant === "string" ? grant : grant?.sessionToken;
          if (typeof token !== "string" || token.length === 0) {
            throw new ShopError("session-expired", "fetchSessionToken gave no token");
          }
          this.#token = token;
          this.#sessionId = (grant as SessionTokenGrant).sessionId ?? this.#sessionId;
          return token;
        } catch (error) {
          throw error instanceof ShopError
            ? error
            : new ShopError("session-expired", "fetchSessionToken failed", { cause: error });
        } finally {
          this.#inflight = undefined;
        }
      })();
    }
    return this.#inflight;
  }
}
