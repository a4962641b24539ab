import { describe, expect, it } from "vitest";
import { deprecationLink, deprecationNotice } from "../../src/core/deprecation.ts";

describe("deprecationNotice", () => {
  it("reads RFC 9745 Deprecation, RFC 8594 Sunset and the rel=deprecation Link", () => {
    const headers = new Headers({
      deprecation: "@1793491200",
      sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
      link: '<https://docs.test/v2>; rel="successor-version", <https://docs.test/changelog>; rel="deprecation"; type="text/html"',
    });
    expect(deprecationNotice(headers)).toEqual({
      deprecatedAt: new Date("2026-11-01T00:00:00Z"),
      sunset: new Date("2027-06-01T00:00:00Z"),
      link: "https://docs.test/changelog",
    });
  });

  it("is undefined without Deprecation, and keeps what it can of odd values", () => {
    expect(deprecationNotice(new Headers({ sunset: "Tue, 01 Jun 2027 00:00:00 GMT" }))).toBeUndefined();
    expect(deprecationNotice(undefined)).toBeUndefined();
    expect(deprecationNotice(new Headers({ deprecation: "true", sunset: "soon" }))).toEqual({
      deprecatedAt: undefined,
      sunset: undefined,
      link: undefined,
    });
  });

  it("finds the deprecation relation among several, unquoted or in a list", () => {
    expect(deprecationLink("<https://a.test>; rel=deprecation")).toBe("https://a.test");
    expect(deprecationLink('<https://a.test>; rel="alternate deprecation"')).toBe("https://a.test");
    expect(deprecationLink('<https://a.test>; rel="next"')).toBeUndefined();
    expect(deprecationLink(null)).toBeUndefined();
  });
});
