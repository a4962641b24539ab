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
