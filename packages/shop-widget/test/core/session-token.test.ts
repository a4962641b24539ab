import { describe, expect, it, vi } from "vitest";
import { ShopError } from "../../src/core/problem";
import { SessionTokenSource } from "../../src/core/session-token";

describe("session tokens", () => {
  it("uses the given token without asking the backend", async () => {
    const fetchSessionToken = vi.fn(async () => "fresh");
    const source = new SessionTokenSource({ sessionToken: "given", fetchSessionToken });
    expect(await source.get()).toBe("given");
    expect(fetchSessionToken).not.toHaveBeenCalled();
  });

  it("fetches once for parallel callers", async () => {
    let n = 0;
    const source = new SessionTokenSource({ fetchSessionToken: async () => `t${++n}` });
    expect(await Promise.all([source.get(), source.get(), source.get()])).toEqual(["t1", "t1", "t1"]);
  });

  it("renews a rejected token once; parallel rejections share the renewal", async () => {
    let n = 0;
    const source = new SessionTokenSource({
      sessionToken: "old",
      fetchSessionToken: async () => `new${++n}`,
    });
    expect(await Promise.all([source.renew("old"), source.renew("old")])).toEqual(["new1", "new1"]);
    // A request that failed with the old token after the renewal gets the new one, not another fetch.
    expect(await source.renew("old")).toBe("new1");
    expect(n).toBe(1);
  });

  it("reports session-expired when it cannot renew", async () => {
    const source = new SessionTokenSource({ sessionToken: "only" });
    await expect(source.renew("only")).rejects.toMatchObject({ kind: "session-expired" });
    const failing = new SessionTokenSource({
      fetchSessionToken: async () => {
        throw new Error("backend down");
      },
    });
    const error = await failing.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ShopError);
    expect(error).toMatchObject({ kind: "session-expired" });
  });

  it("takes a new token from update()", async () => {
    const source = new SessionTokenSource({ sessionToken: "a" });
    source.configure({ sessionToken: "b" });
    expect(await source.get()).toBe("b");
  });
});

describe("idempotency keys", () => {
  it("are UUID v4 even where crypto.randomUUID is missing (plain-http pages)", async () => {
    const { uuid } = await import("../../src/core/uuid");
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, "randomUUID", { value: undefined, configurable: true });
    try {
      const keys = new Set(Array.from({ length: 50 }, () => uuid()));
      expect(keys.size).toBe(50);
      for (const key of keys)
        expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    } finally {
      Object.defineProperty(globalThis.crypto, "randomUUID", { value: original, configurable: true });
    }
  });
});
