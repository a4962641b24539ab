import { describe, expect, it } from "vitest";
import { AcceptLanguageError, negotiateCulture, parseAcceptLanguage } from "../../src/core/culture.ts";
import { fingerprint, parseIdempotencyKey } from "../../src/core/idempotency-store.ts";
import { parseQuicode, quicodeFor } from "../../src/sections/shop/quicode.ts";

describe("negotiateCulture", () => {
  it.each([
    [undefined, "de-CH"],
    ["fr-CH", "fr-CH"],
    ["FR-ch", "fr-CH"],
    ["de-AT", "de-CH"],
    ["en-US,en;q=0.9", "en-GB"],
    ["it;q=0.2, en;q=0.8", "en-GB"],
    ["pt-BR", "de-CH"],
    ["*;q=0.5, it-CH;q=0.1", "de-CH"],
    ["fr-CH;q=0, fr", "de-CH"],
  ])("%s → %s", (header, culture) => {
    expect(negotiateCulture(header)).toBe(culture);
  });

  it("sorts by q and keeps header order on ties", () => {
    expect(parseAcceptLanguage("a;q=0.5, b, c;q=0.5").map((r) => r.tag)).toEqual(["b", "a", "c"]);
  });

  it.each(["en_GB", "de;q=1.5", "de;q=", "-de", "de--CH", "toolonglanguage", ","])("rejects %j", (header) => {
    expect(() => negotiateCulture(header)).toThrow(AcceptLanguageError);
  });
});

describe("idempotency helpers", () => {
  it("parses bare tokens and sf-strings, rejects the rest", () => {
    expect(parseIdempotencyKey("abc-123")).toBe("abc-123");
    expect(parseIdempotencyKey('"with space"')).toBe("with space");
    expect(parseIdempotencyKey('"esc\\"aped"')).toBe('esc"aped');
    expect(parseIdempotencyKey("")).toBeNull();
    expect(parseIdempotencyKey('""')).toBeNull();
    expect(parseIdempotencyKey("a b")).toBeNull();
    expect(parseIdempotencyKey("x".repeat(256))).toBeNull();
  });

  it("fingerprints JSON independent of key order", () => {
    expect(fingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(fingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: "1" }));
  });
});

describe("Quicode", () => {
  it("round-trips and rejects tampering", () => {
    const code = quicodeFor("tkt_01JD3ZE6F7G8H9J0K1M2N3P4Q5");
    expect(code).toMatch(/^Q1\.tkt_01JD3ZE6F7G8H9J0K1M2N3P4Q5\.[0-9A-Z]{6}$/);
    expect(parseQuicode(code)).toBe("tkt_01JD3ZE6F7G8H9J0K1M2N3P4Q5");
    expect(parseQuicode(code.replace("Q5.", "Q6."))).toBeNull();
    expect(parseQuicode(`${code.slice(0, -1)}${code.endsWith("0") ? "1" : "0"}`)).toBeNull();
  });
});
