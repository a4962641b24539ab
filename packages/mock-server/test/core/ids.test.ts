/** ULID-shaped ids: the time part encodes the millisecond, seeded ids are reproducible, monotonic ids sort. */
import { describe, expect, it } from "vitest";
import { mulberry32, prefixedId, ulid } from "../../src/core/ids.ts";

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const timeOf = (id: string) => [...id.slice(0, 10)].reduce((n, c) => n * 32 + CROCKFORD.indexOf(c), 0);

describe("ids", () => {
  it("encodes the time in the first 10 characters, the same for ids of one millisecond", () => {
    const at = Date.parse("2026-11-26T10:00:00.123Z");
    const a = ulid(at);
    const b = ulid(at);
    expect(a).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(timeOf(a)).toBe(at);
    expect(b.slice(0, 10)).toBe(a.slice(0, 10));
    expect(timeOf(ulid(at + 1))).toBe(at + 1);
    expect(timeOf(ulid(0))).toBe(0);
  });

  it("draws a seeded id exactly from its stream", () => {
    expect(prefixedId("evt", 1_700_000_000_000, mulberry32(7))).toBe(
      prefixedId("evt", 1_700_000_000_000, mulberry32(7)),
    );
    expect(ulid(5, () => 0)).toBe(`0000000005${"0".repeat(16)}`);
  });

  it("sorts monotonic ids in the order they were made, within a millisecond and when the clock goes back", () => {
    const at = Date.parse("2026-11-26T10:00:00Z");
    const ids = [
      prefixedId("crt", at),
      prefixedId("crt", at),
      prefixedId("crt", at),
      prefixedId("crt", at - 5_000),
      prefixedId("crt", at + 1),
    ];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(timeOf((ids[0] as string).slice(4))).toBe(at);
    expect(timeOf((ids[4] as string).slice(4))).toBe(at + 1);
  });

  it("counts the random part up by one for each id of one millisecond, carries included", () => {
    const at = Date.parse("2026-11-26T11:00:00Z");
    const tailOf = (id: string) =>
      [...id.slice(14)].reduce((n, c) => n * 32n + BigInt(CROCKFORD.indexOf(c)), 0n);
    const ids = Array.from({ length: 200 }, () => prefixedId("crt", at));
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i]).toMatch(/^crt_[0-9A-HJKMNP-TV-Z]{26}$/);
      expect(tailOf(ids[i] as string)).toBe(tailOf(ids[i - 1] as string) + 1n);
    }
  });
});
