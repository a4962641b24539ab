import { describe, expect, it } from "vitest";
import { createClient, type Middleware } from "../../src/index.ts";
import { createShopClient } from "../../src/shop.ts";
import { BASE, CREDENTIALS, fakeApi, json, problem } from "../helpers.ts";

const FAST = { baseDelayMs: 1, maxDelayMs: 2 };
const CART = { id: "crt_1", status: "open", items: [] };

describe("client middleware (use)", () => {
  it("runs a logging and a header-adding middleware on every attempt, retries included", async () => {
    const api = fakeApi((_, i) => (i < 2 ? problem(503, "service-unavailable") : json(201, CART)));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: FAST });
    const log: string[] = [];
    const logging: Middleware = {
      onRequest: ({ request, attempt, operationId }) => {
        log.push(`→ ${operationId} ${request.method} #${attempt}`);
      },
      onResponse: ({ response, attempt, idempotencyKey }) => {
        log.push(`← ${response.status} #${attempt} ${idempotencyKey ? "keyed" : "unkeyed"}`);
      },
    };
    const tagging: Middleware = {
      onRequest: ({ request, attempt }) => {
        request.headers.set("x-attempt", String(attempt));
      },
    };
    await client.getAccessToken(); // (the token request would pass through them too)
    client.use(logging, tagging);
    const { data, meta } = await client.shop.createCart({ body: {} });
    expect(data).toEqual(CART);
    expect(meta.attempts).toBe(3);
    expect(log).toEqual([
      "→ createCart POST #1",
      "← 503 #1 keyed",
      "→ createCart POST #2",
      "← 503 #2 keyed",
      "→ createCart POST #3",
      "← 201 #3 keyed",
    ]);
    expect(api.calls.map((c) => c.headers.get("x-attempt"))).toEqual(["1", "2", "3"]);
    // One key for every attempt, the body sent each time.
    expect(new Set(api.calls.map((c) => c.headers.get("idempotency-key"))).size).toBe(1);
    expect(api.calls.map((c) => c.body)).toEqual(["{}", "{}", "{}"]);
  });

  it("passes the repeat after a rejected token through the middleware too, and the token request as well", async () => {
    const api = fakeApi((req) =>
      req.headers.get("authorization") === "Bearer tok_1"
        ? problem(401, "unauthorized", {}, { "www-authenticate": 'Bearer error="invalid_token"' })
        : json(200, { items: [] }),
    );
    const seen: string[] = [];
    const client = createClient({
      ...CREDENTIALS,
      fetch: api.fetch,
      middleware: [
        {
          onResponse: ({ request, response, attempt }) =>
            void seen.push(`${new URL(request.url).pathname} ${response.status} #${attempt}`),
        },
      ],
    });
    await client.shop.listVenues.orThrow();
    expect(seen).toEqual([
      "/connect/token 200 #1",
      "/shop/v1/discovery/venues 401 #1",
      "/connect/token 200 #1",
      "/shop/v1/discovery/venues 200 #2",
    ]);
  });

  it("calls onResponse and onError in reverse order; onError sees the typed error and may answer instead", async () => {
    const api = fakeApi(() => {
      throw new TypeError("fetch failed");
    });
    const order: string[] = [];
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch, retry: false });
    client.use(
      {
        onRequest: () => void order.push("a.request"),
        onError: ({ error }) => void order.push(`a.error ${error.kind}`),
      },
      {
        onRequest: () => void order.push("b.request"),
        onError: ({ error }) => {
          order.push(`b.error ${error.kind}`);
          return new Response(JSON.stringify({ items: ["cached"] }), {
            headers: { "content-type": "application/json" },
          });
        },
      },
    );
    const { data } = await client.shop.listVenues();
    expect(data).toEqual({ items: ["cached"] });
    // (The token request went through them first.)
    expect(order.slice(-3)).toEqual(["a.request", "b.request", "b.error network"]);
  });

  it("lets onRequest replace the request or answer it, and onResponse replace the response", async () => {
    const api = fakeApi(() => json(200, { items: [] }));
    const client = createShopClient({ baseUrl: BASE, sessionToken: "ses_1", fetch: api.fetch });
    const answering: Middleware = {
      onRequest: ({ request }) =>
        new URL(request.url).pathname.endsWith("/venues")
          ? new Response(JSON.stringify({ items: [{ id: "ven_mw" }] }), {
              headers: { "content-type": "application/json" },
            })
          : new Request(request, {
              headers: { ...Object.fromEntries(request.headers), "x-replaced": "yes" },
            }),
    };
    const renaming: Middleware = {
      onResponse: ({ response }) =>
        response.status === 404
          ? new Response(JSON.stringify(CART), { headers: { "content-type": "application/json" } })
          : undefined,
    };
    client.use(answering, renaming);
    expect((await client.shop.listVenues()).data).toEqual({ items: [{ id: "ven_mw" }] });
    expect(api.calls).toHaveLength(0);
    await client.shop.listEvents();
    expect(api.calls[0]?.headers.get("x-replaced")).toBe("yes");
    expect(api.calls[0]?.headers.get("authorization")).toBe("Bearer ses_1");

    const missing = fakeApi(() => problem(404, "not-found"));
    const other = createShopClient({
      baseUrl: BASE,
      sessionToken: "ses_1",
      fetch: missing.fetch,
      middleware: [renaming],
    });
    expect((await other.shop.getCart({ params: { path: { id: "crt_1" } } })).data).toEqual(CART);
  });

  it("stops running a middleware once it is ejected, and a throwing middleware fails the call as invalid-argument", async () => {
    const api = fakeApi(() => json(200, { items: [] }));
    const client = createClient({ ...CREDENTIALS, fetch: api.fetch });
    let count = 0;
    const counting: Middleware = { onRequest: () => void count++ };
    client.use(counting);
    await client.shop.listVenues();
    client.eject(counting);
    await client.shop.listVenues();
    expect(count).toBe(2); // the token request and the first call

    client.use({
      onRequest: () => {
        throw new Error("oops");
      },
    });
    const { error } = await client.shop.listVenues();
    expect(error).toMatchObject({
      kind: "invalid-argument",
      argument: "middleware",
      message: expect.stringContaining("oops"),
    });
  });

  it("refuses a middleware option that is not a list of middleware", () => {
    expect(() => createClient({ ...CREDENTIALS, middleware: {} as never })).toThrow(/"middleware" must be/);
    expect(() => createShopClient({ baseUrl: BASE, sessionToken: "s", middleware: [null] as never })).toThrow(
      /createShopClient: "middleware" must be/,
    );
  });
});
