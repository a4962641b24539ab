/** Browser-side session tokens that renew the same shop session, and `client.sessions.renew` on the server. */
import { describe, expect, it, vi } from "vitest";
import { createClient, EntradaProblemError, type TokenRequest } from "../../src/index.ts";
import { BASE, CREDENTIALS, deferred, fakeApi, json, problem } from "../helpers.ts";

const SESSION = "ses_01JD3ZF7G8H9J0K1M2N3P4Q5R6";
const CART = { id: "crt_1", status: "open", items: [] };
const bearer = (headers: Headers) => headers.get("authorization")?.replace(/^Bearer /, "");

/** The host's backend: hands out numbered tokens of one shop session. */
function backend() {
  let issued = 0;
  const requests: TokenRequest[] = [];
  const source = vi.fn(async (request: TokenRequest) => {
    requests.push(request);
    issued += 1;
    return { sessionToken: `tok_${issued}`, sessionId: SESSION };
  });
  return { source, requests };
}

describe("sessionToken function (browser)", () => {
  it("is asked with {} at start, then with the rejected token and its session after a 401, and retries", async () => {
    const host = backend();
    const api = fakeApi((req) =>
      bearer(req.headers) === "tok_1"
        ? problem(401, "unauthorized", {}, { "www-authenticate": 'Bearer error="invalid_token"' })
        : json(200, CART),
    );
    const client = createClient({ baseUrl: BASE, sessionToken: host.source, fetch: api.fetch });
    const { data, error } = await client.shop.getCart({ params: { path: { id: "crt_1" } } });
    expect(error).toBeUndefined();
    expect(data?.id).toBe("crt_1");
    expect(host.requests).toEqual([{}, { rejectedToken: "tok_1", sessionId: SESSION }]);
    expect(api.calls.map((c) => bearer(c.headers))).toEqual(["tok_1", "tok_2"]);
    // The renewed token is kept: the next call neither asks the backend nor gets a 401.
    await client.shop.getCart({ params: { path: { id: "crt_1" } } });
    expect(host.source).toHaveBeenCalledTimes(2);
    expect(await client.getAccessToken()).toBe("tok_2");
  });

  it("still accepts a function returning a bare token (told the rejected token, no session)", async () => {
    const requests: TokenRequest[] = [];
    const tokens = ["tok_old", "tok_new"];
    const api = fakeApi((req) =>
      bearer(req.headers) === "tok_old" ? problem(401, "unauthorized") : json(200, CART),
    );
    const client = createClient({
      baseUrl: BASE,
      sessionToken: (request) => {
        requests.push(request);
        return tokens.shift() ?? "none";
      },
      fetch: api.fetch,
    });
    expect((await client.shop.getCart({ params: { path: { id: "crt_1" } } })).error).toBeUndefined();
    expect(requests).toEqual([{}, { rejectedToken: "tok_old" }]);
  });

  it("N concurrent 401s share exactly one renewal, and every call succeeds with the renewed token", async () => {
    const N = 8;
    const allRejected = deferred<void>();
    let rejections = 0;
    const requests: TokenRequest[] = [];
    const source = vi.fn(async (request: TokenRequest) => {
      requests.push(request);
      // The renewal waits until every call got its 401, so they all meet it in flight.
      if (request.rejectedToken) await allRejected.promise;
      return { sessionToken: request.rejectedToken ? "tok_2" : "tok_1", sessionId: SESSION };
    });
    const api = fakeApi((req) => {
      if (bearer(req.headers) !== "tok_1") return json(200, CART);
      if (++rejections === N) allRejected.resolve();
      return problem(401, "unauthorized");
    });
    const client = createClient({ baseUrl: BASE, sessionToken: source, fetch: api.fetch });
    const results = await Promise.all(
      Array.from({ length: N }, () => client.shop.getCart({ params: { path: { id: "crt_1" } } })),
    );
    expect(results.map((r) => r.error)).toEqual(Array(N).fill(undefined));
    expect(source).toHaveBeenCalledTimes(2);
    expect(requests).toEqual([{}, { rejectedToken: "tok_1", sessionId: SESSION }]);
    expect(api.calls.filter((c) => bearer(c.headers) === "tok_2")).toHaveLength(N);
  });

  it("a 401 for the renewed token too ends in a typed error, without a loop", async () => {
    const host = backend();
    const api = fakeApi(() => problem(401, "unauthorized"));
    const client = createClient({ baseUrl: BASE, sessionToken: host.source, fetch: api.fetch });
    const { data, error } = await client.shop.getCart({ params: { path: { id: "crt_1" } } });
    expect(data).toBeUndefined();
    expect(error).toBeInstanceOf(EntradaProblemError);
    expect(error).toMatchObject({ kind: "problem", status: 401, slug: "unauthorized" });
    expect(host.source).toHaveBeenCalledTimes(2);
    expect(api.calls.map((c) => bearer(c.headers))).toEqual(["tok_1", "tok_2"]);
    await expect(client.shop.getCart.orThrow({ params: { path: { id: "crt_1" } } })).rejects.toMatchObject({
      status: 401,
    });
    // One renewal per rejection: the next call renewed once more (tok_3), then gave up.
    expect(host.requests.at(-1)).toEqual({ rejectedToken: "tok_2", sessionId: SESSION });
    expect(host.source).toHaveBeenCalledTimes(3);
  });

  it("a function that gives no token fails the call instead of sending an empty bearer", async () => {
    const api = fakeApi(() => json(200, CART));
    const client = createClient({
      baseUrl: BASE,
      sessionToken: async () => ({ sessionToken: "", sessionId: SESSION }),
      fetch: api.fetch,
      retry: false,
    });
    const { error } = await client.shop.getCart({ params: { path: { id: "crt_1" } } });
    expect(error?.message).toMatch(/returned no token/);
    expect(api.calls).toHaveLength(0);
  });
});

describe("client.sessions (server)", () => {
  const session = (sessionId: string, n: number) => ({
    sessionId,
    sessionToken: `ses_token_${n}_abcdefghijklmnop`,
    tokenType: "Bearer",
    expiresAt: "2026-11-22T02:00:00Z",
    expiresIn: 900,
    allowedOrigins: [],
  });

  it("create() needs no body", async () => {
    const api = fakeApi(() => json(201, session(SESSION, 1)));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.sessions.create.orThrow();
    expect(data.sessionId).toBe(SESSION);
    expect(JSON.parse(api.calls[0]?.body ?? "")).toEqual({});
  });

  it("renew() asks for a new token of the same session", async () => {
    const api = fakeApi(() => json(201, session(SESSION, 2)));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.sessions.renew.orThrow(SESSION);
    expect(data.sessionId).toBe(SESSION);
    expect(api.calls).toHaveLength(1);
    expect(api.calls[0]?.path).toBe("/shop/v1/sessions");
    expect(JSON.parse(api.calls[0]?.body ?? "")).toEqual({ sessionId: SESSION });
  });

  it("renew() of a session the API no longer knows (404) creates a new one, under its own idempotency key", async () => {
    const api = fakeApi((req) =>
      JSON.parse(req.body).sessionId ? problem(404, "not-found") : json(201, session("ses_NEW", 1)),
    );
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data } = await client.sessions.renew.orThrow(
      SESSION,
      { allowedOrigins: ["https://tickets.example.ch"] },
      { idempotencyKey: "visitor-42-renewal" },
    );
    expect(data.sessionId).toBe("ses_NEW");
    expect(api.calls.map((c) => JSON.parse(c.body))).toEqual([
      { allowedOrigins: ["https://tickets.example.ch"], sessionId: SESSION },
      { allowedOrigins: ["https://tickets.example.ch"] },
    ]);
    const keys = api.calls.map((c) => c.headers.get("idempotency-key"));
    expect(keys[0]).toBe("visitor-42-renewal");
    expect(keys[1]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("renew() of another client's session (403) is an error, not a new session", async () => {
    const api = fakeApi(() => problem(403, "forbidden"));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    const { data, error } = await client.sessions.renew(SESSION);
    expect(data).toBeUndefined();
    expect(error).toMatchObject({ kind: "problem", status: 403, slug: "forbidden" });
    expect(api.calls).toHaveLength(1);
    await expect(client.sessions.renew.orThrow(SESSION)).rejects.toBeInstanceOf(EntradaProblemError);
  });
});
