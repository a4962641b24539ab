import { EntradaProblemError, OAuthError } from "@entrada/sdk/shop";
import { describe, expect, it, vi } from "vitest";
import { createDefaultShopApi } from "../../src/core/default-shop-api";
import { Controller } from "../../src/ui/controller";

const BASE = "https://api.test";
const EVENT = { id: "evt_1", name: "Jazz" };

/** A fake API: a 401 invalid_token for every token in `rejected`, the event otherwise; records the bearer tokens. */
function api(rejected: string[] = []) {
  const seen: string[] = [];
  const fetch = vi.fn(async (request: Request) => {
    const token = (request.headers.get("authorization") ?? "").replace("Bearer ", "");
    seen.push(token);
    return rejected.includes(token)
      ? new Response(
          JSON.stringify({
            type: "https://docs.entrada.dev/problems/unauthorized",
            title: "Unauthorized",
            status: 401,
          }),
          {
            status: 401,
            headers: {
              "content-type": "application/problem+json",
              "www-authenticate": 'Bearer error="invalid_token"',
            },
          },
        )
      : Response.json(EVENT);
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, seen };
}
const call = { locale: "de-CH" };

// The widget's session tokens are the SDK's session-token auth (`createShopClient({ sessionToken })`).
describe("session tokens (the SDK's, through the widget's transport)", () => {
  it("uses the given token without asking the backend", async () => {
    const { fetch, seen } = api();
    const fetchSessionToken = vi.fn(async () => "fresh");
    const shop = createDefaultShopApi({ baseUrl: BASE, sessionToken: "given", fetchSessionToken, fetch });
    expect(await shop.getEvent("evt_1", call)).toEqual(EVENT);
    expect(seen).toEqual(["given"]);
    expect(fetchSessionToken).not.toHaveBeenCalled();
  });

  it("asks the backend once for parallel calls", async () => {
    const { fetch, seen } = api();
    let n = 0;
    const shop = createDefaultShopApi({ baseUrl: BASE, fetchSessionToken: async () => `t${++n}`, fetch });
    await Promise.all([
      shop.getEvent("evt_1", call),
      shop.getEvent("evt_1", call),
      shop.getEvent("evt_1", call),
    ]);
    expect(n).toBe(1);
    expect(seen).toEqual(["t1", "t1", "t1"]);
  });

  it("renews a rejected token once for parallel rejections, naming the token and its shop session", async () => {
    const { fetch, seen } = api(["old"]);
    const requests: unknown[] = [];
    const shop = createDefaultShopApi({
      baseUrl: BASE,
      fetchSessionToken: async (request) => {
        requests.push(request);
        return requests.length === 1 ? { sessionToken: "old", sessionId: "ses_1" } : "new";
      },
      fetch,
    });
    await shop.getEvent("evt_1", call).catch(() => undefined);
    expect(await Promise.all([shop.getEvent("evt_1", call), shop.getEvent("evt_1", call)])).toEqual([
      EVENT,
      EVENT,
    ]);
    expect(requests).toEqual([{}, { rejectedToken: "old", sessionId: "ses_1" }]);
    expect(seen.filter((t) => t === "new").length).toBeGreaterThanOrEqual(2);
  });

  it("rejects with the SDK's errors when it cannot renew (the 401 problem) or gets no token (oauth)", async () => {
    const fixed = createDefaultShopApi({ baseUrl: BASE, sessionToken: "only", fetch: api(["only"]).fetch });
    const rejected = await fixed.getEvent("evt_1", call).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(EntradaProblemError);
    expect(rejected).toMatchObject({ kind: "problem", slug: "unauthorized", status: 401 });
    const failing = createDefaultShopApi({
      baseUrl: BASE,
      fetchSessionToken: async () => {
        throw new Error("backend down");
      },
      fetch: api().fetch,
    });
    expect(await failing.getEvent("evt_1", call).catch((e: unknown) => e)).toBeInstanceOf(OAuthError);
    const none = createDefaultShopApi({ baseUrl: BASE, fetch: api().fetch });
    expect(await none.getEvent("evt_1", call).catch((e: unknown) => e)).toBeInstanceOf(OAuthError);
  });

  it("takes a new token from update()", async () => {
    const { fetch, seen } = api();
    const controller = new Controller({ baseUrl: BASE, sessionToken: "a", fetch }, "test");
    await controller.api.getEvent("evt_1", call);
    controller.setConfig({ ...controller.config, sessionToken: "b" });
    await controller.api.getEvent("evt_1", call);
    expect(seen).toEqual(["a", "b"]);
    controller.dispose();
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
