import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, bodyOf, type Cart, read, readyCart, startApi } from "../helpers.ts";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ session: "idempotency" });
  token = await api.token();
});
afterAll(() => api.close());

const create = (key: string, json?: unknown, headers: Record<string, string> = {}) =>
  api.fetch("/shop/v1/cart", {
    method: "POST",
    headers: bearer(token, { "idempotency-key": key, ...headers }),
    ...(json ? { json } : {}),
  });

describe("Idempotency-Key", () => {
  it("replays the stored response with the original log id and Idempotent-Replayed; no duplicate cart", async () => {
    const first = await create("cart-key-1", { currency: "CHF" });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const firstBody = (await first.json()) as Cart;
    // Key order does not change the fingerprint.
    const second = await create("cart-key-1", { currency: "CHF" });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.headers.get("x-log-id")).toBe(first.headers.get("x-log-id"));
    expect(((await second.json()) as Cart).id).toBe(firstBody.id);
    const snapshot = await (
      await api.fetch("/__mock/snapshot", { headers: { "x-mock-session": "idempotency" } })
    ).json();
    expect(Object.keys(snapshot.world.shop.carts)).toEqual([firstBody.id]);
  });

  it("accepts the sf-string form of the same key", async () => {
    const a = await create("k-quoted");
    const b = await create('"k-quoted"');
    expect(b.headers.get("idempotent-replayed")).toBe("true");
    expect(((await b.json()) as Cart).id).toBe(((await a.json()) as Cart).id);
  });

  it("answers 422 idempotency-key-reused for the same key with another body", async () => {
    await create("cart-key-2", { currency: "CHF" });
    const other = await create("cart-key-2", { currency: "EUR" });
    expect(other.status).toBe(422);
    expect((await other.json()).type).toBe("https://docs.entrada.dev/problems/idempotency-key-reused");
  });

  it("scopes keys to the path: the same key on another path is a different request", async () => {
    const cart = (await (await create("shared-key")).json()) as Cart;
    const session = await api.fetch("/shop/v1/sessions", {
      method: "POST",
      headers: bearer(token, { "idempotency-key": "shared-key" }),
    });
    expect(session.status).toBe(201);
    expect(session.headers.get("idempotent-replayed")).toBeNull();
    expect(cart.id).toMatch(/^crt_/);
  });

  it("answers 409 idempotency-key-in-use while the first request still runs, then replays it", async () => {
    const { cart } = await readyCart(api, token, { headers: { "x-mock-session": "idempotency" } });
    const request = {
      method: "POST",
      url: `${api.url}/shop/v1/cart/${cart.id}/checkout`,
      headers: {
        ...bearer(token),
        "x-mock-session": "idempotency",
        "idempotency-key": "checkout-1",
        "content-type": "application/json",
      },
      body: new TextEncoder().encode(JSON.stringify({ paymentMethod: { cardNumber: "4242424242424242" } })),
    };
    // Both start before the first finishes (the card authorization yields to the event loop).
    const first = api.mock.core.handle(request);
    const second = api.mock.core.handle(request);
    const [a, b] = await Promise.all([first, second]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(409);
    expect(JSON.parse(String(b.body)).type).toBe("https://docs.entrada.dev/problems/idempotency-key-in-use");
    expect(b.headers["retry-after"]).toBe("1");
    const third = await api.mock.core.handle(request);
    expect(third.status).toBe(200);
    expect(third.headers["idempotent-replayed"]).toBe("true");
    expect(third.headers["x-log-id"]).toBe(a.headers["x-log-id"]);
    expect(JSON.parse(String(third.body)).order.id).toBe(JSON.parse(String(a.body)).order.id);
  });

  it("stores nothing for requests rejected before execution (auth, validation)", async () => {
    const invalid = await create("rejected-key", { currency: "USD" });
    expect(invalid.status).toBe(400);
    const noAuth = await api.fetch("/shop/v1/cart", {
      method: "POST",
      headers: { "idempotency-key": "rejected-key-2" },
    });
    expect(noAuth.status).toBe(401);
    const valid = await create("rejected-key", { currency: "CHF" });
    expect(valid.status).toBe(201);
    expect(valid.headers.get("idempotent-replayed")).toBeNull();
    const valid2 = await create("rejected-key-2");
    expect(valid2.headers.get("idempotent-replayed")).toBeNull();
  });

  it("expires keys after 24 hours of mock time", async () => {
    const a = (await (await create("expiring")).json()) as Cart;
    await api.fetch("/__mock/clock", {
      method: "POST",
      headers: { "x-mock-session": "idempotency" },
      json: { advanceSeconds: 86_401 },
    });
    token = await api.token();
    const b = await create("expiring");
    expect(b.headers.get("idempotent-replayed")).toBeNull();
    expect(((await b.json()) as Cart).id).not.toBe(a.id);
  });

  it("rejects malformed keys with a pointer to the header", async () => {
    const long = await create("x".repeat(256));
    expect(long.status).toBe(400);
    expect((await long.json()).errors[0].pointer).toBe("/header/idempotency-key");
    const spaced = await create("has spaces");
    expect(spaced.status).toBe(400);
  });
});

describe("Idempotency-Key on POST /connect/token (every write honours it)", () => {
  const grant = (key: string | undefined, body: string, client = "entrada-demo:demo-secret") =>
    api.fetch("/connect/token", {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa(client)}`,
        "content-type": "application/x-www-form-urlencoded",
        ...(key === undefined ? {} : { "idempotency-key": key }),
      },
      body,
    });

  it("replays the original token with Idempotent-Replayed and the original log id", async () => {
    const first = await grant("token-key-1", "grant_type=client_credentials&scope=Shop");
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const issued = await bodyOf(first, "createToken");
    // Fields in another order are the same request.
    const again = await grant("token-key-1", "scope=Shop&grant_type=client_credentials");
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("x-log-id")).toBe(first.headers.get("x-log-id"));
    expect(again.headers.get("cache-control")).toBe("no-store");
    expect((await bodyOf(again, "createToken")).access_token).toBe(issued.access_token);
  });

  it("answers 422 idempotency-key-reused for the same key with another body", async () => {
    await grant("token-key-2", "grant_type=client_credentials&scope=Shop");
    const other = await grant("token-key-2", "grant_type=client_credentials&scope=TERP");
    expect(other.status).toBe(422);
    expect(other.headers.get("content-type")).toBe("application/problem+json");
    expect((await other.json()).type).toBe("https://docs.entrada.dev/problems/idempotency-key-reused");
  });

  it("keeps clients apart: another client's same key and body gets its own token", async () => {
    const a = await bodyOf(
      await grant("token-key-3", "grant_type=client_credentials&scope=Shop"),
      "createToken",
    );
    const other = await grant(
      "token-key-3",
      "grant_type=client_credentials&scope=Shop",
      "entrada-shop:shop-secret",
    );
    expect(other.status).toBe(200);
    expect(other.headers.get("idempotent-replayed")).toBeNull();
    expect((await bodyOf(other, "createToken")).access_token).not.toBe(a.access_token);
  });

  it("rejects an empty or 256-character key with a 400 in OAuth's format, naming the header", async () => {
    for (const key of ["", "k".repeat(256)]) {
      const response = await grant(key, "grant_type=client_credentials&scope=Shop");
      expect(response.status).toBe(400);
      const body = await read.oauthError(response);
      expect(body.error).toBe("invalid_request");
      expect(body.error_description).toContain("/header/idempotency-key");
    }
  });

  it("without a key issues a new token every time", async () => {
    const a = await bodyOf(await grant(undefined, "grant_type=client_credentials"), "createToken");
    const b = await bodyOf(await grant(undefined, "grant_type=client_credentials"), "createToken");
    expect(a.access_token).not.toBe(b.access_token);
  });
});
