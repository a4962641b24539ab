import { describe, expect, it } from "vitest";
import { targetOf } from "../../src/core/pipeline/1-preamble.ts";

describe("targetOf (the request target, parsed once per URL string)", () => {
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
    for (let i = 0; i < 256; i++) targetOf(`http://mock/other/${i}`);
    const again = targetOf("http://mock:4010/shop/v1/discovery/events?limit=2");
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });

  it("refuses dot segments and URLs that do not parse, every time", () => {
    for (let i = 0; i < 2; i++) {
      expect(() => targetOf("http://mock/shop/../x")).toThrow();
      expect(() => targetOf("not a url")).toThrow();
    }
  });
});
