import { describe, expect, it } from "vitest";
import { COMPACT_AFTER, compact } from "../../src/sections/shared/fifo.ts";

describe("the shared FIFO's compaction", () => {
  it("keeps the array while the consumed front is small or not the larger part", () => {
    const queue = Array.from({ length: 3000 }, (_, i) => i);
    expect(compact(queue, 10)).toEqual([queue, 10]);
    expect(compact(queue, 1400)[0]).toBe(queue);
    const short = [1, 2, 3];
    expect(compact(short, 2)[0]).toBe(short);
  });

  it("cuts the consumed front off once it dominates, keeping the live entries in order", () => {
    const queue = Array.from({ length: 3000 }, (_, i) => i);
    const [kept, head] = compact(queue, 2000);
    expect(head).toBe(0);
    expect(kept).toHaveLength(1000);
    expect(kept[0]).toBe(2000);
    expect(kept.at(-1)).toBe(2999);
    expect(COMPACT_AFTER).toBeLessThan(2000);
  });
});
