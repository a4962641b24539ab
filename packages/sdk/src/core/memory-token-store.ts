import type { StoredToken, TokenStore } from "./token-cache.ts";

/**
 * A `TokenStore` in memory: lets several clients in one process share a token. For several processes, implement
 * `TokenStore` over Redis, a database or a KV namespace.
 */
export function memoryTokenStore(): TokenStore {
  const tokens = new Map<string, StoredToken>();
  return {
    get: async (key) => tokens.get(key),
    set: async (key, token) => {
      tokens.set(key, token);
    },
    delete: async (key) => {
      tokens.delete(key);
    },
  };
}
