import { describe, expect, it, vi } from "vitest";
import { OAuthError } from "../../src/core/errors.ts";
import { memoryTokenStore } from "../../src/core/memory-token-store.ts";
import {
  type ClientCredentials,
  type StoredToken,
  type TokenGrant,
  type TokenStore,
  tokenCache,
  tokenLifetime,
} from "../../src/core/token-cache.ts";
import { deferred } from "../helpers.ts";

const creds: ClientCredentials = { clientId: "id", clientSecret: "secret" };

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms), set: (t: number) => (now = t) };
}

describe("tokenLifetime", () => {
  it("uses a 3600 s token for 50 minutes and refreshes 5 minutes ahead", () => {
    const { expiresAt, refreshAt } = tokenLifetime(0, 3600);
    expect(expiresAt).toBe(50 * 60_000);
    expect(refreshAt).toBe(45 * 60_000);
  });

  it("never uses a token past expires_in minus the safety margin", () => {
    for (const expiresIn of [1, 2, 10, 59, 60, 61, 300, 1800, 3000, 3060, 3600, 86_400]) {
      const { expiresAt, refreshAt } = tokenLifetime(5_000, expiresIn);
      const margin = Math.min(60_000, expiresIn * 100);
      expect(expiresAt).toBeLessThanOrEqual(5_000 + expiresIn * 1000 - margin);
      expect(expiresAt).toBeLessThanOrEqual(5_000 + 50 * 60_000);
      expect(refreshAt).toBeLessThanOrEqual(expiresAt);
      expect(refreshAt).toBeGreaterThanOrEqual(5_000);
    }
  });

  it("keeps short-lived tokens usable (margin at most 10 %)", () => {
    const { expiresAt } = tokenLifetime(0, 300);
    expect(expiresAt).toBe(270_000);
  });

  it("honours custom limits", () => {
    const { expiresAt, refreshAt } = tokenLifetime(0, 3600, { maxAgeMs: 600_000, refreshAheadMs: 60_000 });
    expect(expiresAt).toBe(600_000);
    expect(refreshAt).toBe(540_000);
  });
});

describe("TokenCache", () => {
  function setup(options: { store?: TokenStore; expiresIn?: number } = {}) {
    const time = clock();
    let issued = 0;
    const seen: ClientCredentials[] = [];
    const pending: Array<ReturnType<typeof deferred<TokenGrant>>> = [];
    const requestToken = vi.fn((credentials: ClientCredentials) => {
      seen.push(credentials);
      const d = deferred<TokenGrant>();
      pending.push(d);
      return d.promise;
    });
    const cache = tokenCache({
      credentials: creds,
      requestToken,
      now: time.now,
      store: options.store,
      storeKey: "k",
    });
    const answer = (index = pending.length - 1) =>
      pending[index]?.resolve({ accessToken: `tok_${++issued}`, expiresIn: options.expiresIn ?? 3600 });
    return { cache, time, requestToken, pending, answer, seen };
  }

  it("sends exactly one token request for any number of concurrent callers on a cold cache", async () => {
    const { cache, requestToken, answer } = setup();
    const callers = Array.from({ length: 500 }, () => cache.get());
    await Promise.resolve();
    expect(requestToken).toHaveBeenCalledTimes(1);
    answer();
    const tokens = await Promise.all(callers);
    expect(new Set(tokens)).toEqual(new Set(["tok_1"]));
    expect(requestToken).toHaveBeenCalledTimes(1);
  });

  it("sends exactly one token request for concurrent callers at expiry", async () => {
    const { cache, time, requestToken, answer } = setup();
    const first = cache.get();
    answer();
    expect(await first).toBe("tok_1");
    time.advance(50 * 60_000);
    expect(cache.peek()).toBeUndefined();
    const callers = Array.from({ length: 200 }, () => cache.get());
    await Promise.resolve();
    expect(requestToken).toHaveBeenCalledTimes(2);
    answer();
    expect(new Set(await Promise.all(callers))).toEqual(new Set(["tok_2"]));
  });

  it("refreshes ahead of expiry in the background while the old token keeps serving", async () => {
    const { cache, time, requestToken, answer } = setup();
    const first = cache.get();
    answer();
    await first;
    time.advance(46 * 60_000);
    expect(cache.peek()).toBe("tok_1");
    expect(cache.peek()).toBe("tok_1");
    expect(await cache.get()).toBe("tok_1");
    expect(requestToken).toHaveBeenCalledTimes(2);
    answer();
    await vi.waitFor(() => expect(cache.peek()).toBe("tok_2"));
  });

  it("survives a failed background refresh and pauses before trying again", async () => {
    const { cache, time, requestToken, pending, answer } = setup();
    const first = cache.get();
    answer();
    await first;
    time.advance(46 * 60_000);
    expect(cache.peek()).toBe("tok_1");
    pending[1]?.reject(new Error("boom"));
    await new Promise((r) => setTimeout(r, 0));
    expect(cache.peek()).toBe("tok_1");
    expect(requestToken).toHaveBeenCalledTimes(2);
    time.advance(5_001);
    expect(cache.peek()).toBe("tok_1");
    expect(requestToken).toHaveBeenCalledTimes(3);
  });

  it("propagates a failed token request to every waiting caller, and the next call tries again", async () => {
    const { cache, requestToken, pending, answer } = setup();
    const callers = [cache.get(), cache.get()];
    pending[0]?.reject(new OAuthError({ error: "invalid_client" }, { status: 401 }));
    for (const c of callers) await expect(c).rejects.toBeInstanceOf(OAuthError);
    const again = cache.get();
    answer();
    expect(await again).toBe("tok_1");
    expect(requestToken).toHaveBeenCalledTimes(2);
  });

  it("invalidate drops the rejected token only, never a newer one", async () => {
    const { cache, answer } = setup();
    const first = cache.get();
    answer();
    await first;
    cache.invalidate("tok_other");
    expect(cache.peek()).toBe("tok_1");
    cache.invalidate("tok_1");
    expect(cache.peek()).toBeUndefined();
    const next = cache.get();
    answer();
    expect(await next).toBe("tok_2");
    cache.invalidate("tok_1");
    expect(cache.peek()).toBe("tok_2");
  });

  it("repeats a request with the new credentials when a rotation happened while it was in flight", async () => {
    const { cache, requestToken, pending, seen, answer } = setup();
    const call = cache.get();
    const rotated = { clientId: "id", clientSecret: "new-secret" };
    cache.setCredentials(rotated);
    pending[0]?.reject(new OAuthError({ error: "invalid_client" }, { status: 401 }));
    await vi.waitFor(() => expect(requestToken).toHaveBeenCalledTimes(2));
    answer();
    expect(await call).toBe("tok_1");
    expect(seen).toEqual([creds, rotated]);
  });

  it("keeps the cached token across a rotation unless asked to drop it", async () => {
    const { cache, seen, answer } = setup();
    const first = cache.get();
    answer();
    await first;
    const rotated = { clientId: "id", clientSecret: "s2" };
    cache.setCredentials(rotated);
    expect(cache.peek()).toBe("tok_1");
    cache.setCredentials(rotated, { dropCachedToken: true });
    const next = cache.get();
    answer();
    expect(await next).toBe("tok_2");
    expect(seen.at(-1)).toEqual(rotated);
  });

  it("adopts a fresh token from the store instead of requesting one", async () => {
    const store = memoryTokenStore();
    const time = clock();
    await store.set("k", {
      accessToken: "shared",
      expiresAt: time.now() + 600_000,
      refreshAt: time.now() + 500_000,
    });
    const requestToken = vi.fn();
    const cache = tokenCache({ credentials: creds, requestToken, now: time.now, store, storeKey: "k" });
    expect(await cache.get()).toBe("shared");
    expect(requestToken).not.toHaveBeenCalled();
  });

  it("writes new tokens to the store and skips a stored token the server rejected", async () => {
    const writes: StoredToken[] = [];
    const inner = memoryTokenStore();
    const store: TokenStore = {
      get: (k) => inner.get(k),
      set: async (k, t) => {
        writes.push(t);
        await inner.set(k, t);
      },
      delete: (k) => inner.delete?.(k) ?? Promise.resolve(),
    };
    const { cache, answer, requestToken } = setup({ store });
    const first = cache.get();
    await vi.waitFor(() => expect(requestToken).toHaveBeenCalledTimes(1));
    answer();
    expect(await first).toBe("tok_1");
    expect(writes.map((w) => w.accessToken)).toEqual(["tok_1"]);
    // Another process would still see tok_1 in the store; this one must not adopt it after a rejection.
    const stale = await inner.get("k");
    cache.invalidate("tok_1");
    await inner.set("k", stale as StoredToken);
    const next = cache.get();
    await vi.waitFor(() => expect(requestToken).toHaveBeenCalledTimes(2));
    answer();
    expect(await next).toBe("tok_2");
  });

  it("ignores a failing store", async () => {
    const store: TokenStore = {
      get: () => Promise.reject(new Error("redis down")),
      set: () => Promise.reject(new Error("redis down")),
    };
    const { cache, answer, requestToken } = setup({ store });
    const call = cache.get();
    await vi.waitFor(() => expect(requestToken).toHaveBeenCalledTimes(1));
    answer();
    expect(await call).toBe("tok_1");
  });
});
