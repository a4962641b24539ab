/** Values kept by key, bounded: made once per key while kept, emptied when full. */
import { describe, expect, it } from "vitest";
import { Kept } from "../../src/core/kept.ts";

describe("Kept", () => {
  it("makes a value once per key, keeps null, and starts over when it holds its limit", () => {
    const made: string[] = [];
    const kept = new Kept<string, string | null>(3);
    const make = (key: string) => {
      made.push(key);
      return key === "none" ? null : key.toUpperCase();
    };
    expect(kept.get("a", make)).toBe("A");
    expect(kept.get("a", make)).toBe("A");
    expect(kept.get("none", make)).toBeNull();
    expect(kept.get("none", make)).toBeNull();
    expect(made).toEqual(["a", "none"]);
    kept.get("b", make);
    expect(kept.size).toBe(3);
    // Full: the fourth key empties it, so "a" is made again afterwards.
    kept.get("c", make);
    expect(kept.size).toBe(1);
    expect(kept.get("a", make)).toBe("A");
    expect(made).toEqual(["a", "none", "b", "c", "a"]);
  });
});
