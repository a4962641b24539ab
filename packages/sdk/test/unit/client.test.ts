import { afterEach, describe, expect, it, vi } from "vitest";
import {
  AbortedError,
  createClient,
  EntradaConfigError,
  EntradaProblemError,
  InvalidArgumentError,
  type Locale,
  memoryTokenStore,
  NetworkError,
  OAuthError,
  TimeoutError,
  UnexpectedResponseError,
} from "../../src/index.ts";
import { rawClient } from "../../src/raw.ts";
import { BASE, CREDENTIALS, deferred, fakeApi, hangUntilAborted, json, problem, settle } from "../helpers.ts";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const FAST = { baseDelayMs: 1, maxDelayMs: 2 };
const CART = { id: "crt_1", status: "open", items: [] };

afterEach(() => {
  vi.useRealTimers();
});

describe("requests", () => {
  it("sends the bearer token, the default culture and a User-Agent; no idempotency key on reads", async () => {
    const api = fakeApi(() => json(200, { items: [] }, { "content-language": "fr-CH", "x-log-id": "log_A" }));
    const client = createClient({
      ...CREDENTIALS,
      locale: "fr-ch" as Locale,
      fetch: api.fetch,
      userAgent: "shop/2",
    });
    const { data, error, meta } = await client.shop.listVenues();
    expect(error).toBeUndefined();
    expect(data).toEqual({ items: [] });
    const [call] = api.calls;
    expect(call?.method).toBe("GET");
    expect(call?.url).toBe(`${BASE}/shop/v1/discovery/venues`);
    expect(call?.headers.get("authorization")).toBe("Bearer tok_1");
    expect(call?.headers.get("accept-language")).toBe("fr-CH");
    expect(call?.headers.get("user-agent")).toMatch(/^entrada-sdk-js\/\d+\.\d+\.\d+ shop\/2$/);
    expect(call?.headers.has("idempotency-key")).toBe(false);
    expect(meta).toMatchObject({ logId: "log_A", contentLanguage: "fr-CH", replayed: false, attempts: 1 });
  });

  it("requests the token with HTTP Basic and a form body", async () => {
    const api = fakeApi();
    const client = createClient({ ...CREDENTIALS, scope: ["Shop", "TERP"], fetch: api.fetch });
    await client.shop.listVenues();
    const [token] = api.tokenRequests;
    expect(token?.method).toBe("POST");
    expect(token?.headers.get("authorization")).toBe(`Basic ${btoa("client_demo:s3cret")}`);
    expect(token?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
    expect(Object.fromEntries(new URLSearchParams(token?.body))).toEqual({
      grant_type: "client_credentials",
      scope: "Shop TERP",
    });
  });

  it("sends the token section's createToken as a form, with HTTP Basic only from a client with credentials (else its bearer token)", async () => {
    const api = fakeApi();
    const body = { grant_type: "client_credentials" as const, scope: "Shop" };
    const { data } = await createClient({ ...CREDENTIALS, fetch: api.fetch }).token.createToken({ body });
    const bySession = createClient({ baseUrl: BASE, sessionToken: "ses_1", fetch: api.fetch });
    await bySession.token.createToken({ body });
    expect(data).toMatchObject({ access_token: "tok_1" });
    const [withCredentials, withSession] = api.tokenRequests;
    expect(withCredentials?.headers.get("authorization")).toBe(`Basic ${btoa("client_demo:s3cret")}`);
    expect(withSession?.headers.get("authorization")).toBe("Bearer ses_1");
    for (const request of [withCredentials, withSession]) {
      expect(request?.headers.get("content-type")).toBe("application/x-www-form-urlencoded");
      expect(Object.fromEntries(new URLSearchParams(request?.body))).toEqual(body);
    }
  });

  it("fills path and query parameters and lets one call pick another culture", async () => {
    const api = fakeApi(() => json(200, { id: "evt_1" }));
    const client = createClient({ ...CREDENTIALS, locale: "de-CH", fetch: api.fetch });
    await client.shop.getEvent({ params: { path: { eventId: "evt_1/x" } }, locale: "en-GB" });
    await client.shop.listEvents({ params: { query: { venueId: "ven_1", limit: 5 } } });
    expect(api.calls[0]?.path).toBe("/shop/v1/discovery/events/evt_1%2Fx");
    expect(api.calls[0]?.headers.get("accept-language")).toBe("en-GB");
    expect(new URL(api.calls[1]?.url ?? "").search).toBe("?venueId=ven_1&limit=5");
    expect(api.calls[1]?.headers.get("accept-language")).toBe("de-CH");
  });

  it("fills every parameter of a path, and a result holds data or error (not both) with its meta", async () => {
    const api = fakeApi(() => json(200, CART, { "x-log-id": "log_B" }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const ok = await client.shop.removeCartItem({ params: { path: { id: "crt 1", itemId: "itm_2" } } });
    expect(api.calls[0]?.path).toBe("/shop/v1/cart/crt%201/items/itm_2");
    expect(ok.data).toEqual(CART);
    expect("error" in ok).toBe(false);
    expect(ok.response?.status).toBe(200);
    expect(ok.meta).toMatchObject({
      logId: "log_B",
      attempts: 1,
      idempotencyKey: expect.stringMatching(UUID_V4),
    });
    expect(JSON.parse(JSON.stringify(ok.meta))).toMatchObject({ logId: "log_B", replayed: false });

    const failed = await client.shop.getEvent({
      params: { path: { eventId: "evt_1" } },
      locale: "xx" as Locale,
    });
    expect(failed.error).toBeInstanceOf(InvalidArgumentError);
    expect("data" in failed).toBe(false);
    expect(failed.response).toBeUndefined();
    expect(failed.meta).toMatchObject({ logId: undefined, attempts: 0 });
  });

  it("sends an explode: false array comma-separated (listEvents' include), as the contract declares", async () => {
    const api = fakeApi(() => json(200, { items: [], nextCursor: null }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    await client.shop.listEvents({ params: { query: { include: ["slots", "assortments"], limit: 2 } } });
    await client.shop.listEvents({ params: { query: { include: ["assortments"] } } });
    expect(new URL(api.calls[0]?.url ?? "").search).toBe("?include=slots,assortments&limit=2");
    expect(new URL(api.calls[1]?.url ?? "").search).toBe("?include=assortments");
    // The generated method carries the parameter; no other operation's arrays change shape.
    const specs = Object.values(client.shop) as unknown as { operationId: string; comma?: string[] }[];
    expect(specs.find((op) => op.operationId === "listEvents")?.comma).toEqual(["include"]);
    expect(specs.filter((op) => op.comma !== undefined).map((op) => op.operationId)).toEqual(["listEvents"]);
  });

  it("returns a malformed per-call culture or idempotency key as { error } before sending (orThrow throws)", async () => {
    const api = fakeApi();
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const bad = await client.shop.listVenues({ locale: "de_CH" as Locale });
    expect(bad.error).toBeInstanceOf(InvalidArgumentError);
    expect(bad.error).toMatchObject({ kind: "invalid-argument", argument: "locale", method: "GET" });
    expect(bad.error?.message).toMatch(
      /^GET \/shop\/v1\/discovery\/venues → Invalid locale "de_CH".*language-REGION/,
    );
    const long = await client.shop.createCart({ body: {}, idempotencyKey: "k".repeat(300) });
    expect(long.error).toMatchObject({ kind: "invalid-argument", argument: "idempotencyKey" });
    await expect(
      client.shop.createCart.orThrow({ body: {}, idempotencyKey: "k".repeat(300) }),
    ).rejects.toThrow(/300 characters long; at most 255/);
    expect(api.calls).toHaveLength(0);
  });
});

describe("headers", () => {
  it("sends client-wide and per-call headers; dedicated options win; Authorization stays the credentials'", async () => {
    const api = fakeApi(() => json(201, CART));
    const client = createClient({
      ...CREDENTIALS,
      fetch: api.fetch,
      locale: "fr-CH",
      headers: { "x-gateway-key": "g1", "accept-language": "it-CH", authorization: "Basic stolen" },
    });
    await client.shop.listVenues();
    await client.shop.listVenues({ headers: { "accept-language": "en-GB", "x-gateway-key": "g2" } });
    await client.shop.listVenues({ locale: "de-CH", headers: { "accept-language": "en-GB" } });
    await client.shop.createCart({
      body: {},
      idempotencyKey: "order-1",
      headers: { "idempotency-key": "raw" },
    });
    const [first, second, third, write] = api.calls;
    // The client's locale beats the client's raw header; the call's header beats both; the call's locale beats all.
    expect([first, second, third].map((c) => c?.headers.get("accept-language"))).toEqual([
      "fr-CH",
      "en-GB",
      "de-CH",
    ]);
    expect([first, second].map((c) => c?.headers.get("x-gateway-key"))).toEqual(["g1", "g2"]);
    expect(write?.headers.get("idempotency-key")).toBe("order-1");
    expect(api.calls.every((c) => c.headers.get("authorization") === "Bearer tok_1")).toBe(true);
  });

  it("refuses headers that are not strings at construction", () => {
    expect(() =>
      createClient({ ...CREDENTIALS, headers: { "bad header": "x" } as Record<string, string> }),
    ).toThrow(EntradaConfigError);
  });
});

describe("idempotency", () => {
  it("gives every write its own UUID v4 and reuses it, with the same body, on every retry", async () => {
    const api = fakeApi((_req, i) => (i < 2 ? problem(503, "service-unavailable") : json(201, CART)));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const first = await client.shop.createCart({ body: { currency: "CHF" } });
    expect(first.error).toBeUndefined();
    expect(api.calls).toHaveLength(3);
    const keys = api.calls.map((c) => c.headers.get("idempotency-key"));
    expect(keys[0]).toMatch(UUID_V4);
    expect(new Set(keys).size).toBe(1);
    expect(api.calls.map((c) => c.body)).toEqual(Array(3).fill('{"currency":"CHF"}'));
    expect(first.meta.idempotencyKey).toBe(keys[0]);
    expect(first.meta.attempts).toBe(3);

    await client.shop.createCart({ body: { currency: "CHF" } });
    const next = api.calls[3]?.headers.get("idempotency-key");
    expect(next).toMatch(UUID_V4);
    expect(next).not.toBe(keys[0]);
  });

  it("honours a caller's key and reports replays with the original log id", async () => {
    const api = fakeApi(() => json(201, CART, { "x-log-id": "log_ORIGINAL", "idempotent-replayed": "true" }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { meta } = await client.shop.createCart({ body: {}, idempotencyKey: "order-4711" });
    expect(api.calls[0]?.headers.get("idempotency-key")).toBe("order-4711");
    expect(meta).toMatchObject({ idempotencyKey: "order-4711", replayed: true, logId: "log_ORIGINAL" });
  });

  it("never retries a write that opted out of its key", async () => {
    const api = fakeApi(() => problem(503, "service-unavailable"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const { error } = await client.shop.createCart({ body: {}, idempotencyKey: null });
    expect(error?.status).toBe(503);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.headers.has("idempotency-key")).toBe(false);
  });

  it("does not leak a key into concurrent calls", async () => {
    const api = fakeApi(() => json(201, CART));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.shop.createCart({ body: {} })));
    const sent = api.calls.map((c) => c.headers.get("idempotency-key"));
    expect(new Set(sent).size).toBe(20);
    expect(results.map((r) => r.meta.idempotencyKey).sort()).toEqual([...sent].sort());
  });

  it("retries after 409 idempotency-key-in-use and returns the stored response", async () => {
    const api = fakeApi((_req, i) =>
      i === 0 ? problem(409, "idempotency-key-in-use") : json(201, CART, { "idempotent-replayed": "true" }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const { data, meta } = await client.shop.createCart({ body: {} });
    expect(data).toEqual(CART);
    expect(meta.replayed).toBe(true);
    expect(api.calls).toHaveLength(2);
  });

  it("does not retry other conflicts", async () => {
    const api = fakeApi(() => problem(409, "sold-out"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const { error } = await client.shop.addCartItem({
      params: { path: { id: "crt_1" } },
      body: { articleId: "art_1", slotId: "slt_1", quantity: 2 },
    });
    expect(error).toBeInstanceOf(EntradaProblemError);
    expect(error?.kind === "problem" && error.slug).toBe("sold-out");
    expect(api.calls).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries network errors and 5xx on reads", async () => {
    let n = 0;
    const api = fakeApi(() => {
      n++;
      if (n === 1) throw new TypeError("fetch failed");
      if (n === 2) return problem(502, "internal-error");
      return json(200, { items: [] });
    });
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const { data, meta } = await client.shop.listVenues();
    expect(data).toEqual({ items: [] });
    expect(meta.attempts).toBe(3);
  });

  it("stops after maxRetries and returns the last error", async () => {
    const api = fakeApi(() => problem(500, "internal-error"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: { ...FAST, maxRetries: 1 } });
    const { error } = await client.shop.listVenues();
    expect(error?.kind).toBe("problem");
    expect(error?.status).toBe(500);
    expect(error?.attempts).toBe(2);
    expect(api.calls).toHaveLength(2);
  });

  it("does not retry 4xx other than 408, 425 and 429", async () => {
    const api = fakeApi(() => problem(404, "not-found"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    await client.shop.getCart({ params: { path: { id: "crt_x" } } });
    expect(api.calls).toHaveLength(1);
  });

  it("waits as long as Retry-After says", async () => {
    vi.useFakeTimers();
    const api = fakeApi((_req, i) =>
      i === 0 ? problem(429, "rate-limited", {}, { "retry-after": "2" }) : json(200, {}),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const call = client.shop.listVenues();
    await vi.advanceTimersByTimeAsync(1_990);
    expect(api.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(20);
    expect(api.calls).toHaveLength(2);
    expect((await call).error).toBeUndefined();
  });

  it("gives up instead of waiting longer than the Retry-After cap", async () => {
    const api = fakeApi(() => problem(429, "rate-limited", {}, { "retry-after": "3600" }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.listVenues();
    expect(api.calls).toHaveLength(1);
    expect(error?.kind === "problem" && error.retryAfter).toBe(3600);
  });

  it("shares a retry budget so a failing server is not stormed", async () => {
    const api = fakeApi(() => problem(503, "service-unavailable"));
    const client = createClient({
      ...CREDENTIALS,
      fetch: api.fetch,
      retry: { ...FAST, maxRetries: 3, budget: { capacity: 2, retryCost: 1 } },
    });
    await client.shop.listVenues();
    expect(api.calls).toHaveLength(3);
    await client.shop.listVenues();
    expect(api.calls).toHaveLength(4);
  });

  it("lets a call disable retries", async () => {
    const api = fakeApi(() => problem(503, "service-unavailable"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    await client.shop.listVenues({ retry: false });
    expect(api.calls).toHaveLength(1);
  });
});

describe("timeouts and cancellation", () => {
  it("times out a hanging attempt, retries, then reports a TimeoutError", async () => {
    const api = fakeApi((req) => hangUntilAborted(req.signal));
    const client = createClient({
      ...CREDENTIALS,
      fetch: api.fetch,
      timeoutMs: 20,
      retry: { ...FAST, maxRetries: 1 },
    });
    const { error } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error?.kind === "timeout" && error.scope).toBe("attempt");
    expect(api.calls).toHaveLength(2);
    expect(api.calls.every((c) => c.signal.aborted)).toBe(true);
  });

  it("ends the whole call at its total timeout", async () => {
    const api = fakeApi((req) => hangUntilAborted(req.signal));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, timeoutMs: 10_000 });
    const { error } = await client.shop.listVenues({ totalTimeoutMs: 30 });
    expect(error?.kind === "timeout" && error.scope).toBe("total");
    expect(api.calls).toHaveLength(1);
  });

  it("returns an aborted error carrying the caller's abort reason and stops retrying", async () => {
    const controller = new AbortController();
    const api = fakeApi((req) => {
      setTimeout(() => controller.abort(new Error("user left")), 5);
      return hangUntilAborted(req.signal);
    });
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.listVenues({ signal: controller.signal });
    expect(error).toBeInstanceOf(AbortedError);
    expect(error).toMatchObject({ kind: "aborted", reason: new Error("user left") });
    await expect(client.shop.listVenues.orThrow({ signal: controller.signal })).rejects.toThrow("user left");
    expect(api.calls).toHaveLength(1);
  });

  it("aborts during backoff", async () => {
    const controller = new AbortController();
    const api = fakeApi(() => {
      setTimeout(() => controller.abort(new Error("stop")), 5);
      return problem(503, "service-unavailable", {}, { "retry-after": "10" });
    });
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    await expect(client.shop.listVenues.orThrow({ signal: controller.signal })).rejects.toMatchObject({
      kind: "aborted",
      reason: new Error("stop"),
    });
    expect(api.calls).toHaveLength(1);
  });

  it("reports a NetworkError when every attempt fails to connect", async () => {
    const api = fakeApi(() => {
      throw new TypeError("getaddrinfo ENOTFOUND");
    });
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const { error, response } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error?.message).toMatch(/ENOTFOUND/);
    expect(response).toBeUndefined();
    expect(api.calls).toHaveLength(3);
  });
});

describe("broken bodies", () => {
  function brokenBody(status: number): Response {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"items": ['));
        controller.error(new TypeError("terminated: other side closed"));
      },
    });
    return new Response(stream, { status, headers: { "content-type": "application/json" } });
  }

  it("reports a 2xx body that breaks off as a NetworkError result, not a rejection", async () => {
    const api = fakeApi(() => brokenBody(200));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error, response } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(NetworkError);
    expect(error?.message).toMatch(/terminated/);
    expect(response?.status).toBe(200);
  });

  it("reports an error body that breaks off as a NetworkError", async () => {
    const api = fakeApi(() => brokenBody(404));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.getCart({ params: { path: { id: "crt_1" } } });
    expect(error).toBeInstanceOf(NetworkError);
    expect(error?.status).toBe(404);
  });

  it("times out a body that stalls after the headers", async () => {
    const api = fakeApi((req) => {
      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"items": ['));
          req.signal.addEventListener("abort", () => controller.error(req.signal.reason));
        },
      });
      return new Response(stream, { status: 200, headers: { "content-type": "application/json" } });
    });
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, timeoutMs: 30 });
    const { error } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(TimeoutError);
  });
});

describe("tokens", () => {
  it("sends one token request for 1,000 concurrent calls on a cold client", async () => {
    const api = fakeApi(() => json(200, { items: [] }));
    const gate = deferred<void>();
    const issue = api.token;
    api.token = async (req, i) => {
      await gate.promise;
      return issue(req, i);
    };
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const calls = Array.from({ length: 1000 }, () => client.shop.listVenues());
    // Every call is now waiting for the one token request.
    await settle();
    gate.resolve();
    const results = await Promise.all(calls);
    expect(results.every((r) => r.error === undefined)).toBe(true);
    expect(api.tokenRequests).toHaveLength(1);
    expect(new Set(api.calls.map((c) => c.headers.get("authorization")))).toEqual(new Set(["Bearer tok_1"]));
  });

  it("drops a token rejected with 401 invalid_token and retries once with a new one", async () => {
    const api = fakeApi((req) =>
      req.headers.get("authorization") === "Bearer tok_1"
        ? problem(
            401,
            "unauthorized",
            {},
            { "www-authenticate": 'Bearer realm="entrada", error="invalid_token"' },
          )
        : json(200, { items: [] }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.shop.listVenues();
    expect(data).toEqual({ items: [] });
    expect(api.tokenRequests).toHaveLength(2);
    expect(api.calls.map((c) => c.headers.get("authorization"))).toEqual(["Bearer tok_1", "Bearer tok_2"]);
  });

  it("retries a 401 only once", async () => {
    const api = fakeApi(() =>
      problem(
        401,
        "unauthorized",
        {},
        { "www-authenticate": 'Bearer realm="entrada", error="invalid_token"' },
      ),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.listVenues();
    expect(error?.kind === "problem" && error.slug).toBe("unauthorized");
    expect(api.calls).toHaveLength(2);
  });

  it("reports token endpoint refusals as OAuthError", async () => {
    const api = fakeApi();
    api.token = () =>
      json(
        401,
        { error: "invalid_client", error_description: "Unknown client" },
        { "www-authenticate": "Basic" },
      );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(OAuthError);
    expect(error?.kind === "oauth" && error.error).toBe("invalid_client");
    expect(api.calls).toHaveLength(0);
    await expect(client.shop.listVenues.orThrow()).rejects.toBeInstanceOf(OAuthError);
  });

  it("rotates credentials at runtime without failing calls in flight", async () => {
    const api = fakeApi(() => json(200, { items: [] }));
    const gate = deferred<void>();
    let issued = 0;
    api.token = async (req) => {
      await gate.promise;
      // The old secret is revoked as soon as the rotation happened.
      if (req.headers.get("authorization") !== `Basic ${btoa("client_demo:rotated")}`) {
        return json(401, { error: "invalid_client" });
      }
      return json(200, { access_token: `tok_${++issued}`, token_type: "Bearer", expires_in: 3600 });
    };
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const calls = Array.from({ length: 10 }, () => client.shop.listVenues());
    // The token request is under way with the old secret.
    await settle();
    expect(api.tokenRequests).toHaveLength(1);
    client.setCredentials({ clientId: "client_demo", clientSecret: "rotated" });
    gate.resolve();
    const results = await Promise.all(calls);
    expect(results.map((r) => r.error)).toEqual(Array(10).fill(undefined));
    expect(api.tokenRequests).toHaveLength(2);
  });

  it("keeps no client secret on its public transport (so a rotated one is gone)", async () => {
    const api = fakeApi();
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    client.setCredentials({ clientId: "client_demo", clientSecret: "rotated" });
    await client.shop.listVenues.orThrow();
    const transport = (client as unknown as Record<symbol, { auth: object }>)[
      Symbol.for("@entrada/sdk.transport")
    ];
    expect(transport?.auth).toBeDefined();
    const seen = JSON.stringify(transport);
    expect(seen).not.toContain(CREDENTIALS.clientSecret);
    expect(seen).not.toContain("rotated");
    expect(api.tokenRequests[0]?.headers.get("authorization")).toBe(`Basic ${btoa("client_demo:rotated")}`);
  });

  it("shares a token between clients through a token store", async () => {
    const api = fakeApi();
    const tokenStore = memoryTokenStore();
    const a = createClient({ ...CREDENTIALS, fetch: api.fetch, tokenStore });
    const b = createClient({ ...CREDENTIALS, fetch: api.fetch, tokenStore });
    await a.shop.listVenues();
    await b.shop.listVenues();
    expect(api.tokenRequests).toHaveLength(1);
    expect(api.calls.map((c) => c.headers.get("authorization"))).toEqual(["Bearer tok_1", "Bearer tok_1"]);
  });

  it("uses a session token as given, and calls a token function again after a 401", async () => {
    const api = fakeApi((req) =>
      req.headers.get("authorization") === "Bearer ses_old" ? problem(401, "unauthorized") : json(200, {}),
    );
    const fixed = createClient({ baseUrl: BASE, sessionToken: "ses_fixed", fetch: api.fetch });
    await fixed.shop.getSystemConfiguration();
    expect(api.calls[0]?.headers.get("authorization")).toBe("Bearer ses_fixed");
    expect(api.tokenRequests).toHaveLength(0);

    const tokens = ["ses_old", "ses_new"];
    const source = vi.fn(async () => tokens.shift() ?? "none");
    const refreshing = createClient({ baseUrl: BASE, sessionToken: source, fetch: api.fetch });
    const { error } = await refreshing.shop.getSystemConfiguration();
    expect(error).toBeUndefined();
    expect(source).toHaveBeenCalledTimes(2);
  });

  it("exposes the cached token for other helpers (BI feed)", async () => {
    const api = fakeApi();
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    expect(await client.getAccessToken()).toBe("tok_1");
    expect(await client.getAccessToken()).toBe("tok_1");
    expect(api.tokenRequests).toHaveLength(1);
  });
});

describe("errors and results", () => {
  it("returns problem details as a typed error with log id, status and idempotency key", async () => {
    const api = fakeApi(() =>
      problem(
        402,
        "payment-declined",
        { logId: "log_P", instance: "/shop/v1/cart/crt_1/checkout" },
        { "x-log-id": "log_P" },
      ),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const result = await client.shop.checkoutCart({ params: { path: { id: "crt_1" } }, body: {} });
    expect(result.data).toBeUndefined();
    const error = result.error as EntradaProblemError;
    expect(error).toBeInstanceOf(EntradaProblemError);
    expect(error.slug).toBe("payment-declined");
    expect(error.status).toBe(402);
    expect(error.logId).toBe("log_P");
    expect(error.idempotencyKey).toMatch(UUID_V4);
    expect(error.operationId).toBe("checkoutCart");
    expect(error.instance).toBe("/shop/v1/cart/crt_1/checkout");
    expect(result.response?.status).toBe(402);
  });

  it("keeps the raw body when a proxy answers HTML", async () => {
    const html = "<!doctype html><h1>502 Bad Gateway</h1>";
    const api = fakeApi(() => new Response(html, { status: 502, headers: { "content-type": "text/html" } }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: false });
    const { error } = await client.shop.listVenues();
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(error?.kind === "unexpected-body" && error.body).toBe(html);
    expect(error?.status).toBe(502);
  });

  it("refuses a 2xx that is not JSON", async () => {
    const api = fakeApi(
      () =>
        new Response("<html>captive portal</html>", {
          status: 200,
          headers: { "content-type": "text/html" },
        }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error, data } = await client.shop.listVenues();
    expect(data).toBeUndefined();
    expect(error?.kind).toBe("unexpected-body");
    expect(error?.kind === "unexpected-body" && error.body).toBe("<html>captive portal</html>");
  });

  it("refuses truncated JSON", async () => {
    const api = fakeApi(
      () => new Response('{"items": [', { status: 200, headers: { "content-type": "application/json" } }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { error } = await client.shop.listVenues();
    expect(error?.kind).toBe("unexpected-body");
  });

  it("orThrow resolves with data or rejects with the typed error", async () => {
    const api = fakeApi((req) => (req.path.endsWith("crt_ok") ? json(200, CART) : problem(404, "not-found")));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const ok = await client.shop.getCart.orThrow({ params: { path: { id: "crt_ok" } } });
    expect(ok.data).toEqual(CART);
    const failure = client.shop.getCart.orThrow({ params: { path: { id: "crt_missing" } } });
    await expect(failure).rejects.toBeInstanceOf(EntradaProblemError);
    await expect(failure).rejects.toMatchObject({ slug: "not-found", status: 404 });
  });
});

describe("other entry points", () => {
  it("asks for JSON where an operation also speaks XML, and returns other bodies as text", async () => {
    const xml = '<?xml version="1.0"?><edmx:Edmx Version="4.0"/>';
    let answerXml = false;
    const api = fakeApi(() =>
      answerXml
        ? new Response(xml, { status: 200, headers: { "content-type": "application/xml" } })
        : json(200, { $Version: "4.0" }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const asJson = await client.bi.getBiMetadata.orThrow();
    expect(api.calls[0]?.headers.get("accept")).toBe("application/json");
    expect(asJson.data).toEqual({ $Version: "4.0" });
    answerXml = true;
    const asXml = await client.bi.getBiMetadata.orThrow({ headers: { accept: "application/xml" } });
    expect(api.calls[1]?.headers.get("accept")).toBe("application/xml");
    expect(asXml.data).toBe(xml);
  });

  it("returns binary operations (ticket PDF) as a Blob", async () => {
    const bytes = new TextEncoder().encode("%PDF-1.7 fake");
    const api = fakeApi(
      () => new Response(bytes, { status: 200, headers: { "content-type": "application/pdf" } }),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.assets.getTicketPdf.orThrow({ params: { path: { ticketId: "tkt_1" } } });
    expect(data).toBeInstanceOf(Blob);
    expect(new Uint8Array(await data.arrayBuffer())).toEqual(bytes);
    expect(api.calls[0]?.path).toBe("/assets/v1/tickets/tkt_1.pdf");
  });

  it("creates a session token with one server-side call", async () => {
    const session = {
      sessionToken: "ses_1",
      tokenType: "Bearer",
      expiresIn: 900,
      allowedOrigins: ["https://shop.example"],
    };
    const api = fakeApi(() => json(201, session));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.sessions.create.orThrow({ allowedOrigins: ["https://shop.example"] });
    expect(data).toEqual(session);
    expect(api.calls[0]?.method).toBe("POST");
    expect(api.calls[0]?.path).toBe("/shop/v1/sessions");
    expect(JSON.parse(api.calls[0]?.body ?? "")).toEqual({ allowedOrigins: ["https://shop.example"] });
    expect(api.calls[0]?.headers.get("idempotency-key")).toMatch(UUID_V4);
  });

  it("routes the raw openapi-fetch client through the same transport", async () => {
    const api = fakeApi((_req, i) => (i === 0 ? problem(503, "service-unavailable") : json(201, CART)));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST, locale: "it-CH" });
    const { data } = await rawClient(client).POST("/shop/v1/cart", { body: {} });
    expect(data).toEqual(CART);
    expect(api.calls).toHaveLength(2);
    expect(api.calls[0]?.headers.get("idempotency-key")).toMatch(UUID_V4);
    expect(api.calls[1]?.headers.get("idempotency-key")).toBe(api.calls[0]?.headers.get("idempotency-key"));
    expect(api.calls[0]?.headers.get("accept-language")).toBe("it-CH");
  });

  it("never sends the bearer token to another origin", async () => {
    const api = fakeApi(() => json(200, {}));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    await client.fetch(`${BASE}/bi/v1/odata/Orders`);
    await client.fetch("https://elsewhere.example/bi/v1/odata/Orders?$skiptoken=x");
    await client.fetch(`${BASE}.evil.example/steal`);
    expect(api.calls.map((c) => c.headers.get("authorization"))).toEqual(["Bearer tok_1", null, null]);
  });

  it("offers an authenticated fetch for URLs outside the typed sections", async () => {
    const api = fakeApi(() => json(200, { value: [] }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const response = await client.fetch("/bi/v1/odata/Orders?$top=1", { locale: "en-GB" });
    expect(await response.json()).toEqual({ value: [] });
    expect(api.calls[0]?.url).toBe(`${BASE}/bi/v1/odata/Orders?$top=1`);
    expect(api.calls[0]?.headers.get("authorization")).toBe("Bearer tok_1");
    expect(api.calls[0]?.headers.get("accept-language")).toBe("en-GB");
  });
});

describe("configuration", () => {
  const bad: Array<[string, Record<string, unknown>, RegExp]> = [
    ["missing base URL", { clientId: "a", clientSecret: "b" }, /"baseUrl" is required/],
    ["relative base URL", { baseUrl: "/api", clientId: "a", clientSecret: "b" }, /absolute http\(s\) URL/],
    ["ftp base URL", { baseUrl: "ftp://x.test", clientId: "a", clientSecret: "b" }, /absolute http\(s\) URL/],
    ["base URL with query", { baseUrl: "https://x.test/?a=1", clientId: "a", clientSecret: "b" }, /query/],
    ["no credentials", { baseUrl: BASE }, /credentials are missing/],
    ["id without secret", { baseUrl: BASE, clientId: "a" }, /"clientSecret" is required/],
    ["secret without id", { baseUrl: BASE, clientSecret: "b" }, /"clientId" is required/],
    ["empty secret", { baseUrl: BASE, clientId: "a", clientSecret: " " }, /"clientSecret" is required/],
    ["two modes", { baseUrl: BASE, clientId: "a", clientSecret: "b", sessionToken: "s" }, /not several/],
    ["bad culture", { ...CREDENTIALS, locale: "de_CH" }, /language-REGION/],
    ["language only", { ...CREDENTIALS, locale: "de" }, /language-REGION/],
    ["bad scope", { ...CREDENTIALS, scope: "Admin" }, /"scope"/],
    ["bad timeout", { ...CREDENTIALS, timeoutMs: -1 }, /"timeoutMs"/],
    ["bad retries", { ...CREDENTIALS, retry: { maxRetries: 1.5 } }, /maxRetries/],
    ["bad fetch", { ...CREDENTIALS, fetch: "fetch" }, /"fetch" must be a function/],
    [
      "zero total timeout",
      { ...CREDENTIALS, totalTimeoutMs: 0 },
      /"totalTimeoutMs" must be a positive number/,
    ],
    ["infinite timeout", { ...CREDENTIALS, timeoutMs: Infinity }, /"timeoutMs" must be a positive number/],
    [
      "too many retries",
      { ...CREDENTIALS, retry: { maxRetries: 11 } },
      /"retry.maxRetries" must be an integer/,
    ],
    ["bad backoff", { ...CREDENTIALS, retry: { baseDelayMs: -5 } }, /"retry.baseDelayMs" must be a positive/],
    [
      "bad backoff cap",
      { ...CREDENTIALS, retry: { maxDelayMs: "1s" } },
      /"retry.maxDelayMs" must be a positive number of milliseconds; got "1s"/,
    ],
    [
      "bad Retry-After cap",
      { ...CREDENTIALS, retry: { maxRetryAfterMs: Number.NaN } },
      /"retry.maxRetryAfterMs"/,
    ],
    [
      "middleware not a list",
      { ...CREDENTIALS, middleware: { onRequest() {} } },
      /"middleware" must be an array/,
    ],
  ];
  for (const [name, options, message] of bad) {
    it(`throws EntradaConfigError at construction: ${name}`, () => {
      expect(() => createClient(options as never)).toThrow(EntradaConfigError);
      expect(() => createClient(options as never)).toThrow(message);
    });
  }

  it("refuses a client secret in a browser unless explicitly allowed", () => {
    const g = globalThis as { window?: unknown };
    g.window = {};
    try {
      expect(() => createClient({ ...CREDENTIALS })).toThrow(/refusing to use a client secret in a browser/);
      expect(() => createClient({ ...CREDENTIALS, allowBrowserSecrets: true })).not.toThrow();
      expect(() => createClient({ baseUrl: BASE, sessionToken: "ses_1" })).not.toThrow();
    } finally {
      delete g.window;
    }
  });

  it("checks nothing that is left out: retries off, no middleware, no timeouts", () => {
    expect(() =>
      createClient({ ...CREDENTIALS, retry: false, middleware: undefined, timeoutMs: undefined }),
    ).not.toThrow();
    expect(() => createClient({ ...CREDENTIALS, retry: { maxRetries: 0, baseDelayMs: 1 } })).not.toThrow();
  });

  it("normalizes the base URL", async () => {
    const api = fakeApi();
    const client = createClient({ ...CREDENTIALS, baseUrl: `${BASE}/`, fetch: api.fetch });
    await client.shop.listVenues();
    expect(api.calls[0]?.url).toBe(`${BASE}/shop/v1/discovery/venues`);
    expect(api.tokenRequests[0]?.url).toBe(`${BASE}/connect/token`);
  });
});
