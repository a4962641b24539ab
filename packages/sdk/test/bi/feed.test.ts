import { describe, expect, it, vi } from "vitest";
import { biFeed, ODataError, odata } from "../../src/bi/index.ts";
import { EntradaError, EntradaProblemError, NetworkError, OAuthError } from "../../src/index.ts";
import { fakeFeed, tickets } from "./fake-feed.ts";

const collect = async <T>(it: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
};

describe("biFeed", () => {
  it("metadata(): the CSDL JSON of $metadata with the token; an OData error or a body that is not CSDL throws", async () => {
    const csdl = { $Version: "4.0", $EntityContainer: "Entrada.BI.Container", "Entrada.BI": {} };
    const seen: { url: string; headers: Headers }[] = [];
    const answers = [
      new Response(JSON.stringify(csdl), { headers: { "content-type": "application/json" } }),
      new Response(JSON.stringify({ error: { code: "Unauthorized", message: "Token expired" } }), {
        status: 401,
      }),
      new Response("<html>proxy</html>", { status: 200 }),
    ];
    const bi = biFeed({
      baseUrl: "https://api.test",
      accessToken: "tok",
      maxAttempts: 1,
      fetch: async (url, init) => {
        seen.push({ url, headers: new Headers(init.headers) });
        return answers.shift() as Response;
      },
    });
    expect(await bi.metadata()).toEqual(csdl);
    expect(seen[0]?.url).toBe("https://api.test/bi/v1/odata/$metadata?$format=json");
    expect(seen[0]?.headers.get("authorization")).toBe("Bearer tok");
    expect(seen[0]?.headers.get("accept")).toBe("application/json");
    const expired = await bi.metadata().catch((e: unknown) => e);
    expect(expired).toBeInstanceOf(ODataError);
    expect([(expired as ODataError).status, (expired as ODataError).code]).toEqual([401, "Unauthorized"]);
    await expect(bi.metadata()).rejects.toMatchObject({ code: "invalid_response" });
  });

  it("iterates all rows across pages by following absolute nextLinks, with token and paging headers", async () => {
    const rows = tickets(7);
    const feed = fakeFeed(rows);
    let tokens = 0;
    const bi = biFeed({
      baseUrl: `${feed.origin}/`,
      fetch: feed.fetch,
      getToken: async () => `tok_${++tokens}`,
      maxPageSize: 3,
    });
    const got = await collect(bi.query(odata("Tickets").filter((f) => f.eq("EventId", "evt_1"))));
    expect(got).toEqual(rows);
    expect(feed.calls.map((c) => c.url.searchParams.get("$skiptoken"))).toEqual([null, "3", "6"]);
    expect(feed.calls[0]?.url.pathname).toBe("/bi/v1/odata/Tickets");
    expect(feed.calls[0]?.url.searchParams.get("$filter")).toBe("EventId eq 'evt_1'");
    for (const [i, call] of feed.calls.entries()) {
      expect(call.headers.get("authorization")).toBe(`Bearer tok_${i + 1}`);
      expect(call.headers.get("prefer")).toBe("odata.maxpagesize=3");
      expect(call.headers.get("accept")).toBe("application/json;odata.metadata=minimal");
    }
  });

  it("exposes pages with @odata.count and lets a call override the page size", async () => {
    const feed = fakeFeed(tickets(5));
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "static", locale: "fr-CH" });
    const pages = await collect(bi.pages(odata("Tickets").select("TicketId").count(), { maxPageSize: 4 }));
    expect(pages.map((p) => p.value.length)).toEqual([4, 1]);
    expect(pages[0]?.count).toBe(5);
    expect(pages[0]?.value[0]).toEqual({ TicketId: "tkt_0" });
    expect(pages[0]?.nextLink).toMatch(/^https:\/\/api\.test\/bi\/v1\/odata\/Tickets\?.*skiptoken=4/);
    expect(pages[1]?.nextLink).toBeUndefined();
    expect(feed.calls[0]?.headers.get("authorization")).toBe("Bearer static");
    expect(feed.calls[0]?.headers.get("accept-language")).toBe("fr-CH");
  });

  it("refuses a nextLink to another origin before sending anything there", async () => {
    const feed = fakeFeed(tickets(5), { nextOrigin: "https://evil.test" });
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "secret" });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const row of bi.rows(odata("Tickets"))) seen.push(row.TicketId);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ODataError);
    expect(err).toMatchObject({ code: "cross_origin_next_link", status: 0 });
    expect(feed.calls.every((c) => c.url.origin === "https://api.test")).toBe(true);
    expect(feed.calls).toHaveLength(1);
  });

  it("refuses a nextLink that points at the same page", async () => {
    const fetch = async (url: string) => Response.json({ value: [{ id: "x" }], "@odata.nextLink": url });
    const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t" });
    await expect(collect(bi.rows(odata("Orders")))).rejects.toMatchObject({ code: "next_link_loop" });
  });

  it("turns OData JSON errors into typed ODataErrors", async () => {
    const fetch = async () =>
      Response.json(
        {
          error: {
            code: "UnknownProperty",
            message: "Property 'foo' does not exist",
            target: "$filter",
            details: [{ code: "UnknownProperty", message: "foo", target: "foo" }],
            innererror: { logId: "log_01JDXM0A1B2C3D4E5F6G7H8J9K" },
          },
        },
        { status: 400 },
      );
    const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t" });
    const err = await collect(bi.rows(odata("Orders").filter("foo eq 1"))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ODataError);
    expect(err).toMatchObject({
      status: 400,
      kind: "odata",
      code: "UnknownProperty",
      detail: "Property 'foo' does not exist",
      message: "GET /bi/v1/odata/Orders → 400 UnknownProperty: Property 'foo' does not exist",
      target: "$filter",
      details: [{ code: "UnknownProperty", message: "foo", target: "foo" }],
    });
    expect((err as ODataError).url).toContain("/bi/v1/odata/Orders?$filter=foo%20eq%201");
  });

  it("keeps the raw body of HTML or garbage answers", async () => {
    const html = "<html><body>Bad gateway</body></html>";
    const bi = biFeed({
      baseUrl: "https://api.test",
      fetch: async () => new Response(html, { status: 404, headers: { "content-type": "text/html" } }),
      accessToken: "t",
    });
    await expect(collect(bi.rows(odata("Orders")))).rejects.toMatchObject({
      status: 404,
      code: "http_error",
      rawBody: html,
    });
    const ok = biFeed({
      baseUrl: "https://api.test",
      fetch: async () => new Response('{"value": 3}'),
      accessToken: "t",
    });
    await expect(collect(ok.rows(odata("Orders")))).rejects.toMatchObject({
      status: 200,
      code: "invalid_response",
    });
  });

  it("retries 503/429 pages (honouring Retry-After) and network errors, then gives up", async () => {
    const feed = fakeFeed(tickets(3));
    const answers: (() => Promise<Response>)[] = [
      async () => new Response("busy", { status: 503, headers: { "retry-after": "0" } }),
      async () => {
        throw new TypeError("fetch failed");
      },
    ];
    const fetch = vi.fn(async (url: string, init: RequestInit) =>
      (answers.shift() ?? (() => feed.fetch(url, init)))(),
    );
    const bi = biFeed({ baseUrl: feed.origin, fetch, accessToken: "t", maxPageSize: 2, maxRetryDelayMs: 1 });
    expect(await collect(bi.rows(odata("Tickets")))).toHaveLength(3);
    expect(fetch).toHaveBeenCalledTimes(4);

    const failing = vi.fn(async () => new Response("", { status: 429, headers: { "retry-after": "0" } }));
    const bi2 = biFeed({ baseUrl: feed.origin, fetch: failing, accessToken: "t", maxAttempts: 3 });
    await expect(collect(bi2.rows(odata("Tickets")))).rejects.toMatchObject({
      status: 429,
      code: "http_error",
    });
    expect(failing).toHaveBeenCalledTimes(3);

    const down = vi.fn(async () => {
      throw new TypeError("ECONNREFUSED");
    });
    const bi3 = biFeed({
      baseUrl: feed.origin,
      fetch: down,
      accessToken: "t",
      maxAttempts: 2,
      maxRetryDelayMs: 1,
    });
    const down3 = await collect(bi3.rows(odata("Tickets"))).catch((e: unknown) => e);
    expect(down3).toBeInstanceOf(NetworkError);
    expect(down3).toMatchObject({ kind: "network", status: undefined, method: "GET", attempts: 2 });
    expect(down).toHaveBeenCalledTimes(2);
  });

  it("reads problem+json answers from layers before OData (auth, rate limits)", async () => {
    const bi = biFeed(
      async () =>
        Response.json(
          {
            type: "https://docs.entrada.dev/problems/unauthorized",
            title: "Unauthorized",
            status: 401,
            detail: "Token expired",
          },
          { status: 401, headers: { "content-type": "application/problem+json" } },
        ),
      { baseUrl: "https://api.test" },
    );
    const err = await collect(bi.rows(odata("Orders"))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EntradaProblemError);
    expect(err).toMatchObject({
      kind: "problem",
      status: 401,
      slug: "unauthorized",
      detail: "Token expired",
    });
  });

  it("accepts an authenticating fetch as the first argument", async () => {
    const feed = fakeFeed(tickets(3));
    const bi = biFeed(feed.fetch, { baseUrl: feed.origin, maxPageSize: 2 });
    expect(await collect(bi.rows(odata("Tickets")))).toHaveLength(3);
    expect(feed.calls[0]?.headers.get("authorization")).toBeNull();
  });

  it("waits as Retry-After says, as seconds and as an HTTP-date, through the SDK's transport", async () => {
    vi.useFakeTimers({ now: Date.parse("2026-11-23T10:00:00Z") });
    try {
      const answers = [
        () => new Response("", { status: 503, headers: { "retry-after": "2" } }),
        () => new Response("", { status: 429, headers: { "retry-after": "Mon, 23 Nov 2026 10:00:05 GMT" } }),
      ];
      const fetch = vi.fn(
        async () => answers.shift()?.() ?? Response.json({ value: [{ OrderId: "ord_1" }] }),
      );
      const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t", maxRetryDelayMs: 60_000 });
      const rows = collect(bi.rows(odata("Orders")));
      await vi.advanceTimersByTimeAsync(1_999);
      expect(fetch).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetch).toHaveBeenCalledTimes(2);
      // The HTTP-date is 10:00:05, three seconds after the second attempt at 10:00:02.
      await vi.advanceTimersByTimeAsync(2_999);
      expect(fetch).toHaveBeenCalledTimes(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(await rows).toEqual([{ OrderId: "ord_1" }]);
      expect(fetch).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it("gives up when Retry-After asks for longer than maxRetryDelayMs", async () => {
    const fetch = vi.fn(async () => new Response("", { status: 429, headers: { "retry-after": "120" } }));
    const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t", maxRetryDelayMs: 60_000 });
    await expect(collect(bi.rows(odata("Orders")))).rejects.toMatchObject({ kind: "odata", status: 429 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("reports a wrong client secret as an OAuthError after one token request (not a network error)", async () => {
    const fetch = vi.fn(async (url: string) =>
      url.endsWith("/connect/token")
        ? Response.json({ error: "invalid_client", error_description: "Unknown client" }, { status: 401 })
        : Response.json({ value: [] }),
    );
    const bi = biFeed({ baseUrl: "https://api.test", fetch, clientId: "id", clientSecret: "wrong" });
    const err = await collect(bi.rows(odata("Orders"))).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err).toBeInstanceOf(EntradaError);
    expect(err).toMatchObject({ kind: "oauth", error: "invalid_client", status: 401 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("does not retry 501 (an unsupported query option)", async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error: { code: "NotImplemented", message: "$apply" } }, { status: 501 }),
    );
    const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t" });
    await expect(collect(bi.rows(odata("Orders")))).rejects.toMatchObject({
      status: 501,
      code: "NotImplemented",
    });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("does not retry client errors", async () => {
    const fetch = vi.fn(async () =>
      Response.json({ error: { code: "Forbidden", message: "no" } }, { status: 403 }),
    );
    const bi = biFeed({ baseUrl: "https://api.test", fetch, accessToken: "t" });
    await expect(collect(bi.rows(odata("Orders")))).rejects.toMatchObject({ status: 403, code: "Forbidden" });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it("stops on abort", async () => {
    const controller = new AbortController();
    const feed = fakeFeed(tickets(10));
    const bi = biFeed({ baseUrl: feed.origin, fetch: feed.fetch, accessToken: "t", maxPageSize: 2 });
    const seen: string[] = [];
    const run = (async () => {
      for await (const row of bi.rows(odata("Tickets"), { signal: controller.signal })) {
        seen.push(row.TicketId);
        if (seen.length === 3) controller.abort(new Error("stop"));
      }
    })();
    await expect(run).rejects.toThrow("stop");
    expect(seen).toHaveLength(4); // the rest of the current page, then no further request
    expect(feed.calls).toHaveLength(2);
  });

  it("rejects bad configuration at construction", () => {
    expect(() => biFeed({ baseUrl: "not a url", accessToken: "t" })).toThrow(/Invalid BI baseUrl/);
    expect(() => biFeed({ baseUrl: "ftp://x", accessToken: "t" })).toThrow(TypeError);
    expect(() => biFeed({ baseUrl: "https://x" })).toThrow(/getToken or accessToken/);
    expect(() => biFeed({ baseUrl: "https://x", accessToken: "t", maxPageSize: 0 })).toThrow(TypeError);
    expect(biFeed({ baseUrl: "https://x/api/", accessToken: "t" }).root.href).toBe(
      "https://x/api/bi/v1/odata",
    );
  });
});
