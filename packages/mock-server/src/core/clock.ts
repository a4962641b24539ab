import type { Clock } from "./types.ts";

/**
 * Wall-clock time plus an offset the developer controls (`/__mock/clock`). It can also be frozen, so a
 * test sees exactly the instant it set.
 */
export class MockClock implements Clock {
  private offsetMs = 0;
  private frozenAt: number | null = null;
  private readonly source: () => number;
  constructor(source: () => number = Date.now) {
    this.source = source;
  }

  now(): number {
    return this.frozenAt ?? this.source() + this.offsetMs;
  }

  advance(ms: number): void {
    if (this.frozenAt !== null) this.frozenAt += ms;
    else this.offsetMs += ms;
  }

  set(epochMs: number): void {
    if (this.frozenAt !== null) this.frozenAt = epochMs;
    else this.offsetMs = epochMs - this.source();
  }

  freeze(): void {
    this.frozenAt = this.now();
  }

  unfreeze(): void {
    if (this.frozenAt === null) return;
    this.offsetMs = this.frozenAt - this.source();
    this.frozenAt = null;
  }

  get frozen(): boolean {
    return this.frozenAt !== null;
  }

  reset(): void {
    this.offsetMs = 0;
    this.frozenAt = null;
  }
}
