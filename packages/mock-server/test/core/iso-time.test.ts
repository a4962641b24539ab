import { describe, expect, it } from "vitest";
import { isoSeconds, isoTimestamp, parsedTime } from "../../src/core/iso-time.ts";

/** Instants around the edges the arithmetic has to get right, and a spread of ordinary ones. */
const instants = [
  0,
  1,
  999,
  1000,
  59_999,
  3_599_999,
  86_399_999,
  86_400_000,
  Date.UTC(2024, 1, 29, 23, 59, 59, 999),
  Date.UTC(2024, 2, 1),
  Date.UTC(2026, 10, 26, 11, 20, 35, 7),
  Date.UTC(2026, 10, 26, 11, 20, 35, 70),
  Date.UTC(1999, 11, 31, 23, 59, 59, 999),
  Date.UTC(9999, 11, 31, 23, 59, 59, 999),
  ...Array.from({ length: 500 }, (_, i) => Math.floor(((i * 7919) % 500) * 613_637_959_3.7)),
];

describe("isoTimestamp and isoSeconds", () => {
  it("write what Date#toISOString writes, with and without the milliseconds", () => {
    for (const ms of instants) {
      const expected = new Date(ms).toISOString();
      expect(isoTimestamp(ms)).toBe(expected);
      expect(isoSeconds(ms)).toBe(expected.replace(/\.\d{3}Z$/, "Z"));
    }
  });

  it("write the same text for the same instant whichever day was formatted before", () => {
    const a = Date.UTC(2026, 0, 1, 0, 0, 0, 1);
    const b = Date.UTC(2025, 11, 31, 23, 59, 59, 999);
    expect([isoTimestamp(a), isoTimestamp(b), isoTimestamp(a)]).toEqual([
      "2026-01-01T00:00:00.001Z",
      "2025-12-31T23:59:59.999Z",
      "2026-01-01T00:00:00.001Z",
    ]);
  });

  it("leave extended years, instants before 1970, fractions and invalid instants to Date", () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10000, 0, 1), Date.UTC(-1, 0, 1), 1.5, 86_400_000.9]) {
      expect(isoTimestamp(ms)).toBe(new Date(ms).toISOString());
      expect(isoSeconds(ms)).toBe(new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z"));
    }
    expect(() => isoTimestamp(Number.NaN)).toThrow(RangeError);
    expect(() => isoSeconds(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe("parsedTime", () => {
  it("gives Date.parse's value for every text, kept or not, and past the bound", () => {
    const texts = [
      "2026-12-01T19:30:00Z",
      "2026-12-01T19:30:00.250+01:00",
      "2026-12-01",
      "not a time",
      ...Array.from({ length: 1500 }, (_, i) => isoSeconds(Date.UTC(2026, 0, 1) + i * 3_600_000)),
    ];
    for (let round = 0; round < 2; round++) {
      for (const text of texts) expect(parsedTime(text), text).toEqual(Date.parse(text));
    }
    expect(parsedTime("not a time")).toBeNaN();
  });
});
