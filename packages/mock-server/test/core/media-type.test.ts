import { describe, expect, it } from "vitest";
import { contentTypeOf } from "../../src/core/media-type.ts";

describe("contentTypeOf (a Content-Type read once)", () => {
  it("gives the media type and charset lower-cased and trimmed, with or without parameters", () => {
    expect(contentTypeOf("application/json")).toEqual({ media: "application/json", charset: undefined });
    expect(contentTypeOf(' Application/JSON ; foo=bar; Charset="UTF-8" ')).toEqual({
      media: "application/json",
      charset: 'charset="utf-8"',
    });
    expect(contentTypeOf("text/plain;charset=latin1")).toEqual({
      media: "text/plain",
      charset: "charset=latin1",
    });
  });

  it("reads a missing or empty header as no media type", () => {
    expect(contentTypeOf(undefined)).toEqual({ media: "", charset: undefined });
    expect(contentTypeOf("")).toEqual({ media: "", charset: undefined });
    expect(contentTypeOf(";charset=utf-8")).toEqual({ media: "", charset: "charset=utf-8" });
  });
});
