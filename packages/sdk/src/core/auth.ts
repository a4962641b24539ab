/** Bearer token sources other than the client-credentials cache: a fixed token or a token function. */

import type { TokenCache } from "./token-cache.ts";
import type { AuthProvider } from "./transport.ts";

/** A token given as a string, or a function returning one (called again after a `401 invalid_token`). */
export type TokenSource = string | (() => string | Promise<string>);

export function staticAuth(source: TokenSource): AuthProvider {
  if (typeof source === "string") {
    return { peek: () => source, get: async () => source, invalidate: () => false };
  }
  let current: string | undefined;
  let pending: Promise<string> | undefined;
  return {
    peek: () => current,
    get() {
      pending ??= Promise.resolve()
        .then(source)
        .then((token) => {
          current = token;
          return token;
        })
        .finally(() => {
          pending = undefined;
        });
      return pending;
    },
    invalidate(token) {
      if (current === token) current = undefined;
      return true;
    },
  };
}

export function cacheAuth(cache: TokenCache): AuthProvider {
  return {
    peek: () => cache.peek(),
    get: () => cache.get(),
    invalidate(token) {
      cache.invalidate(token);
      return true;
    },
  };
}
