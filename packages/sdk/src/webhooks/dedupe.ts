import { header, type WebhookHeaders } from "./headers.ts";

/**
 * Where seen delivery ids live. Share one store between processes (Redis `SET key 1 NX PX ttl`, a database
 * unique key) so a redelivery reaching another instance is caught too.
 */
export interface WebhookDedupeStore {
  /** Atomically records `id` for `ttlMs`; resolves `true` if it was not recorded yet. */
  claim(id: string, ttlMs: number): boolean | Promise<boolean>;
  /** Forgets `id`, so a redelivery is processed again (call when handling failed). */
  release(id: string): void | Promise<void>;
}

export interface WebhookDeduperOptions {
  /** How long an id is remembered. Default 3 days, the span of Entrada's retry schedule. */
  ttlMs?: number;
  /** Shared store; default an in-memory LRU of `maxEntries` ids. */
  store?: WebhookDedupeStore;
  /** Bound of the in-memory store. Default 10 000. */
  maxEntries?: number;
}

export interface WebhookDeduper {
  /** `true` the first time a `webhook-id` is seen (process it), `false` for a duplicate (acknowledge and skip). */
  claim(idOrHeaders: string | WebhookHeaders): Promise<boolean>;
  /** Call when processing failed, so the sender's retry is not mistaken for a duplicate. */
  release(id: string): Promise<void>;
}

/** An in-memory LRU with per-entry expiry; the default store. */
export function memoryDedupeStore(maxEntries = 10_000): WebhookDedupeStore {
  const seen = new Map<string, number>();
  return {
    claim(id, ttlMs) {
      const now = Date.now();
      const expires = seen.get(id);
      seen.delete(id);
      if (expires !== undefined && expires > now) {
        seen.set(id, expires);
        return false;
      }
      seen.set(id, now + ttlMs);
      for (const oldest of seen.keys()) {
        if (seen.size <= maxEntries) break;
        seen.delete(oldest);
      }
      return true;
    },
    release(id) {
      seen.delete(id);
    },
  };
}

/**
 * Drops redeliveries of the same message, keyed on `webhook-id` (Standard Webhooks retries keep the id).
 * @example
 * const dedupe = createWebhookDeduper();
 * if (!(await dedupe.claim(req.headers))) return res.sendStatus(200); // already handled
 */
export function createWebhookDeduper(options: WebhookDeduperOptions = {}): WebhookDeduper {
  const ttl = options.ttlMs ?? 259_200_000;
  const store = options.store ?? memoryDedupeStore(options.maxEntries);
  return {
    async claim(input) {
      const id = typeof input === "string" ? input : header(input, "webhook-id");
      if (typeof id !== "string" || !id) throw new TypeError("A webhook-id is required to deduplicate");
      return store.claim(id, ttl);
    },
    async release(id) {
      await store.release(id);
    },
  };
}
