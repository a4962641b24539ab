/**
 * One timer for every in-flight attempt of a client instead of a `setTimeout`/`clearTimeout` pair per request:
 * attempts register their deadline, the timer is armed for the earliest one and re-armed as they pass. The timer
 * is unref'd where the runtime allows it, so an idle client never keeps a process alive (in-flight sockets do).
 */

export interface Deadline {
  at: number;
  fire: () => void;
  live: boolean;
}

export class Deadlines {
  /** Registration order; finished entries are only flagged (cheap) and compacted in bulk. */
  #queue: Deadline[] = [];
  #live = 0;
  readonly #now: () => number;
  #armedAt = Number.POSITIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Calls `fire` at `at` (epoch ms) unless `delete`d first. */
  add(at: number, fire: () => void): Deadline {
    const entry = { at, fire, live: true };
    const queue = this.#queue;
    queue.push(entry);
    this.#live++;
    if (at < this.#armedAt) this.#arm(at);
    else if (queue.length > 64 && queue.length > 2 * this.#live) this.#queue = queue.filter((e) => e.live);
    return entry;
  }

  delete(entry: Deadline): void {
    if (!entry.live) return;
    entry.live = false;
    this.#live--;
  }

  /** Deadlines registered and not yet fired or deleted. */
  get size(): number {
    return this.#live;
  }

  /** Entries held, finished ones not yet compacted included (bounded: at most twice the live ones, or 64). */
  get held(): number {
    return this.#queue.length;
  }

  #arm(at: number): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#armedAt = at;
    const timer = setTimeout(() => this.#sweep(), Math.max(0, at - this.#now()));
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }

  #sweep(): void {
    this.#timer = undefined;
    this.#armedAt = Number.POSITIVE_INFINITY;
    const now = this.#now();
    let next = Number.POSITIVE_INFINITY;
    const due: Deadline[] = [];
    const kept: Deadline[] = [];
    for (const entry of this.#queue) {
      if (!entry.live) continue;
      if (entry.at <= now) due.push(entry);
      else {
        kept.push(entry);
        if (entry.at < next) next = entry.at;
      }
    }
    this.#queue = kept;
    for (const entry of due) {
      this.delete(entry);
      entry.fire();
    }
    if (next !== Number.POSITIVE_INFINITY && next < this.#armedAt) this.#arm(next);
  }
}
