import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Api, bearer, startApi } from "../helpers.ts";

let api: Api;
beforeAll(async () => {
  api = await startApi({ tokenTtlSeconds: 120 });
});
afterAll(() => api.close());

const form = (body: string, headers: Record<string, string> = {}) =>
  api.fetch("/connect/token", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body,
  });
const basic = (id: string, secret: string) => ({ authorization: `Basic ${btoa(`${id}:${secret}`)}` });

describe("POST /connect/token (RFC 6749)", () => {
  it("issues a bearer token by client_secret_basic and by client_secret_post, no-store", async () => {
    const a = await form("grant_type=client_credentials&scope=Shop", basic("entrada-demo", "demo-secret"));
    expect(a.status).toBe(200);
    expect(a.headers.get("cache-control")).toBe("no-store");
    expect(await a.json()).toMatchObject({ token_type: "Bearer", expires_in: 120, scope: "Shop" });
    const b = await form("grant_type=client_credentials&client_id=entrada-demo&client_secret=demo-secret");
    expect(b.status).toBe(200);
    expect((await b.json()).scope).toBe("Shop TERP");
  });

  it("ignores form fields it does not know, as RFC 6749 §3.2 requires and the contract's TokenRequest allows", async () => {
    const extra = await form(
      "grant_type=client_credentials&scope=Shop&audience=https%3A%2F%2Fapi.entrada.dev&resource=shop",
      basic("entrada-demo", "demo-secret"),
    );
    expect(extra.status).toBe(200);
    expect(await extra.json()).toMatchObject({ token_type: "Bearer", scope: "Shop" });
  });

  it("answers the RFC error codes", async () => {
    const wrong = await form("grant_type=client_credentials", basic("entrada-demo", "nope"));
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic realm="entrada"/);
    expect((await wrong.json()).error).toBe("invalid_client");
    const grant = await form("grant_type=password", basic("entrada-demo", "demo-secret"));
    expect((await grant.json()).error).toBe("unsupported_grant_type");
    const scope = await form(
      "grant_type=client_credentials&scope=Admin",
      basic("entrada-demo", "demo-secret"),
    );
    expect(scope.status).toBe(400);
    expect((await scope.json()).error).toBe("invalid_scope");
    const notAllowed = await form(
      "grant_type=client_credentials&scope=TERP",
      basic("entrada-shop", "shop-secret"),
    );
    expect((await notAllowed.json()).error).toBe("invalid_scope");
    const missing = await form("scope=Shop", basic("entrada-demo", "demo-secret"));
    expect((await missing.json()).error).toBe("invalid_request");
    const twice = await form(
      "grant_type=client_credentials&grant_type=client_credentials",
      basic("entrada-demo", "demo-secret"),
    );
    expect((await twice.json()).error).toBe("invalid_request");
    const json = await api.fetch("/connect/token", {
      method: "POST",
      headers: basic("entrada-demo", "demo-secret"),
      json: { grant_type: "client_credentials" },
    });
    expect((await json.json()).error).toBe("invalid_request");
    const none = await form("grant_type=client_credentials");
    expect(none.status).toBe(401);
  });
});

describe("bearer checks and scopes (RFC 6750)", () => {
  it("401 with WWW-Authenticate when missing, invalid or expired; tokens expire on the mock clock", async () => {
    const missing = await api.fetch("/shop/v1/discovery/venues");
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe('Bearer realm="entrada"');
    expect((await missing.json()).type).toBe("https://docs.entrada.dev/problems/unauthorized");
    const invalid = await api.fetch("/shop/v1/discovery/venues", { headers: bearer("made-up") });
    expect(invalid.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const token = await api.token();
    expect((await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token) })).status).toBe(200);
    await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 121 } });
    const expired = await api.fetch("/shop/v1/discovery/venues", { headers: bearer(token) });
    expect(expired.status).toBe(401);
    expect(expired.headers.get("www-authenticate")).toContain('error="invalid_token"');
  });

  it("403 insufficient_scope for a TERP-only token on the shop", async () => {
    const terp = await api.token("TERP");
    const r = await api.fetch("/shop/v1/discovery/venues", { headers: bearer(terp) });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(r.headers.get("www-authenticate")).toContain('scope="Shop"');
  });

  it("keeps both secrets valid during a rotation, and existing tokens stay live", async () => {
    const before = await api.token("Shop", { id: "entrada-shop", secret: "shop-secret" });
    const rotated = await (await api.fetch("/__mock/clients/entrada-shop/rotate", { method: "POST" })).json();
    expect(rotated.validSecrets).toBe(2);
    await api.token("Shop", { id: "entrada-shop", secret: "shop-secret" });
    await api.token("Shop", { id: "entrada-shop", secret: rotated.secret });
    expect((await api.fetch("/shop/v1/discovery/venues", { headers: bearer(before) })).status).toBe(200);
    const again = await (await api.fetch("/__mock/clients/entrada-shop/rotate", { method: "POST" })).json();
    await expect(api.token("Shop", { id: "entrada-shop", secret: "shop-secret" })).rejects.toThrow(/401/);
    await api.token("Shop", { id: "entrada-shop", secret: again.secret });
  });

  it("session tokens: created server-to-server, accepted by browser-safe operations only, bound to origins and their own carts", async () => {
    const token = await api.token();
    const created = await api.fetch("/shop/v1/sessions", {
      method: "POST",
      headers: bearer(token),
      json: { allowedOrigins: ["https://shop.example.ch"] },
    });
    expect(created.status).toBe(201);
    const session = await created.json();
    expect(session).toMatchObject({
      tokenType: "Bearer",
      expiresIn: 900,
      allowedOrigins: ["https://shop.example.ch"],
    });
    const origin = { origin: "https://shop.example.ch" };
    const cart = await api.fetch("/shop/v1/cart", {
      method: "POST",
      headers: bearer(session.sessionToken, origin),
    });
    expect(cart.status).toBe(201);
    expect(cart.headers.get("access-control-allow-origin")).toBe("https://shop.example.ch");
    const cartId = (await cart.json()).id;
    const other = await api.fetch("/shop/v1/cart", {
      method: "POST",
      headers: bearer(session.sessionToken, { origin: "https://evil.example" }),
    });
    expect(other.status).toBe(403);
    const nested = await api.fetch("/shop/v1/sessions", {
      method: "POST",
      headers: bearer(session.sessionToken, origin),
    });
    expect(nested.status).toBe(403);
    expect(nested.headers.get("www-authenticate")).toContain("insufficient_scope");
    // A second session cannot see the first session's cart; the creating client can.
    const second = await (
      await api.fetch("/shop/v1/sessions", { method: "POST", headers: bearer(token) })
    ).json();
    expect(
      (await api.fetch(`/shop/v1/cart/${cartId}`, { headers: bearer(second.sessionToken) })).status,
    ).toBe(404);
    expect((await api.fetch(`/shop/v1/cart/${cartId}`, { headers: bearer(token) })).status).toBe(200);
  });
});

describe("CORS", () => {
  it("answers preflights and exposes the headers a browser client needs", async () => {
    const r = await api.fetch("/shop/v1/cart", {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, idempotency-key",
      },
    });
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(r.headers.get("access-control-allow-methods")).toContain("POST");
    expect(r.headers.get("access-control-allow-headers")).toBe(
      "authorization, content-type, idempotency-key",
    );
    const get = await api.fetch("/shop/v1/discovery/venues", {
      headers: { origin: "http://localhost:5173" },
    });
    const exposed = get.headers.get("access-control-expose-headers") ?? "";
    for (const name of [
      "X-Log-Id",
      "Idempotent-Replayed",
      "Content-Language",
      "RateLimit-Remaining",
      "Retry-After",
    ]) {
      expect(exposed).toContain(name);
    }
    expect(get.headers.get("vary")).toContain("Origin");
  });
});
