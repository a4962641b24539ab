import { afterEach, describe, expect, it, vi } from "vitest";
import { targetOf } from "../../src/core/pipeline/preamble.ts";

describe("targetOf (the request target, parsed once per URL string)", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("parses as WHATWG URL does, keeps the target of a repeated URL, and keeps at most 256", () => {
    const first = targetOf("http://mock:4010/shop/v1/discovery/events?limit=2");
    expect(first).toEqual({
      origin: "http://mock:4010",
      pathname: "/shop/v1/discovery/events",
      search: "?limit=2",
    });
    expect(targetOf("http://mock:4010/shop/v1/discovery/events?limit=2")).toBe(first);
    // WHATWG's percent-encoding of the path is kept (the router decodes parameters itself).
    expect(targetOf("http://mock/a b/%7Bx%7D").pathname).toBe("/a%20b/%7Bx%7D");
    for (let i = 0; i < 256; i++) targetOf(`http://mock/other/${i}?page=${i}`);
    const again = targetOf("http://mock:4010/shop/v1/discovery/events?limit=2");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("reads a plain URL's target without parsing it, exactly as WHATWG URL parsing gives it", () => {
    const parsed = vi.fn();
    const Whatwg = URL;
    vi.stubGlobal(
      "URL",
      class extends Whatwg {
        constructor(url: string | URL, base?: string | URL) {
          super(url, base);
          parsed(String(url));
        }
      },
    );
    const plain = [
      "http://127.0.0.1:4010/shop/v1/cart/crt_01M8CE3V57JA28K38BGBB8PVJY/items",
      "http://127.0.0.1:4010/shop/v1/cart/crt_01M8CE3V57JA28K38BGBB8PVJZ/items",
      "HTTP://Mock.Example:80/a//b_~-/",
      "https://api.entrada.dev:443/",
    ];
    const others = [
      "http://mock/a.b",
      "http://mock/a%41",
      "http://mock/a?b/c",
      "http://mock?x/a",
      "http://mock#x/a",
      "http://mock/a b",
      "http://user:pw@mock:4010/a",
    ];
    const targets = [...plain, ...others].map((url) => [url, targetOf(url)] as const);
    vi.unstubAllGlobals();
    for (const [url, target] of targets) {
      const { origin, pathname, search } = new URL(url);
      expect(target, url).toEqual({ origin, pathname, search });
    }
    // One parse for each scheme and authority (127.0.0.1:4010 once for both carts), none for a plain path itself.
    expect(
      parsed.mock.calls
        .map(([url]) => url)
        .filter((url) => plain.some((p) => p.startsWith(url.slice(0, -1)))),
    ).toEqual(["http://127.0.0.1:4010/", "HTTP://Mock.Example:80/", "https://api.entrada.dev:443/"]);
  });

  it("refuses dot segments and URLs that do not parse, every time", () => {
    for (let i = 0; i < 2; i++) {
      expect(() => targetOf("http://mock/shop/../x")).toThrow();
      expect(() => targetOf("not a url")).toThrow();
    }
  });
});
