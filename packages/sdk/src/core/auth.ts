/** Bearer token sources other than the client-credentials cache: a fixed token or a token function. */

import type { AuthProvider } from "./types.ts";

/**
 * What a token function is told: `{}` the first time; after a `401`, the token the API rejected and, when the
 * function returned one, the shop session it belonged to (renew it: `client.sessions.renew(sessionId)`).
 */
export interface TokenRequest {
  /** The token the API just rejected (expired or revoked). */
  rejectedToken?: string;
  /** With `rejectedToken`: the `sessionId` your function returned with that token. */
  sessionId?: string;
}

/** A session token with its shop session — e.g. the `createSession` response as is. */
export interface SessionTokenGrant {
  sessionToken: string;
  /** Passed back as `TokenRequest.sessionId` when the token is rejected, so your backend renews that session. */
  sessionId?: string | undefined;
}

/** A token given as a string, or a function returning one (called again, once per rejection, after a `401`). */
export type TokenSource = string | ((request: TokenRequest) => string | Promise<string>);

/** `sessionToken`: a token, or a function returning a token or `{ sessionToken, sessionId }`. */
export type SessionTokenSource =
  | string
  | ((request: TokenRequest) => string | SessionTokenGrant | Promise<string | SessionTokenGrant>);

export function staticAuth(source: SessionTokenSource): AuthProvider {
  const fixed = typeof source === "string";
  let current = fixed ? source : undefined;
  let rejected: string | undefined;
  let sessionId: string | undefined;
  let pending: Promise<string> | undefined;
  return {
    peek: () => current,
    // Single flight: every caller waiting for a token (cold start, or N calls rejected at once) shares one call.
    get() {
      pending ??= Promise.resolve(rejected === undefined ? {} : { rejectedToken: rejected, sessionId })
        .then(fixed ? () => source : source)
        .then((grant) => {
          const token = typeof grant === "string" ? grant : grant?.sessionToken;
          if (typeof token !== "string" || !token)
            throw new TypeError("the token function returned no token");
          sessionId = (grant as SessionTokenGrant).sessionId ?? sessionId;
          current = token;
          rejected = undefined;
          return token;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    invalidate(token) {
      // A fixed token would only be rejected again.
      if (fixed) return false;
      if (current === token) {
        current = undefined;
        rejected = token;
      }
      return true;
    },
  };
}
