import { afterEach, describe, expect, it, vi } from "vitest";
import { newDeadlines } from "../../src/core/deadlines.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("Deadlines (one shared timer for attempt timeouts)", () => {
  it("fires each deadline at its time, earliest first, and never a deleted one", async () => {
    vi.useFakeTimers({ now: 0 });
    const deadlines = newDeadlines();
    const fired: string[] = [];
    deadlines.add(300, () => fired.push("c"));
    deadlines.add(100, () => fired.push("a"));
    const b = deadlines.add(200, () => fired.push("b"));
    deadlines.add(200, () => fired.push("b2"));
    deadlines.delete(b);
    await vi.advanceTimersByTimeAsync(99);
    expect(fired).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(fired).toEqual(["a"]);
    await vi.advanceTimersByTimeAsync(200);
    expect(fired).toEqual(["a", "b2", "c"]);
    expect(deadlines.size).toBe(0);
  });

  it("uses one timer however many deadlines are pending", () => {
    vi.useFakeTimers({ now: 0 });
    const deadlines = newDeadlines();
    for (let i = 0; i < 1000; i++) deadlines.add(30_000 + i, () => undefined);
    expect(vi.getTimerCount()).toBe(1);
  });

  it("stays bounded under churn: only live entries are held", () => {
    vi.useFakeTimers({ now: 0 });
    const deadlines = newDeadlines();
    const fired = vi.fn();
    for (let i = 0; i < 100_000; i++) deadlines.delete(deadlines.add(30_000 + i, fired));
    expect(deadlines.size).toBe(0);
    const live = Array.from({ length: 500 }, (_, i) => deadlines.add(40_000 + i, fired));
    for (let i = 0; i < 10_000; i++) deadlines.delete(deadlines.add(40_000, fired));
    expect(deadlines.size).toBe(500);
    for (const entry of live) deadlines.delete(entry);
    vi.advanceTimersByTime(200_000);
    expect(fired).not.toHaveBeenCalled();
  });

  it("re-arms for a sooner deadline added later", async () => {
    vi.useFakeTimers({ now: 0 });
    const deadlines = newDeadlines();
    const fired: number[] = [];
    deadlines.add(10_000, () => fired.push(10_000));
    deadlines.add(50, () => fired.push(50));
    await vi.advanceTimersByTimeAsync(50);
    expect(fired).toEqual([50]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fired).toEqual([50, 10_000]);
  });
});
