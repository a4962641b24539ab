/**
 * One timer for every in-flight attempt of a client instead of a `setTimeout`/`clearTimeout` pair per request:
 * attempts register their deadline, the timer is armed for the earliest one and re-armed as they pass. The timer
 * is unref'd where the runtime allows it, so an idle client never keeps a process alive (in-flight sockets do).
 */

export interface Deadline {
  at: number;
  fire: () => void;
}

export class Deadlines {
  readonly #entries = new Set<Deadline>();
  readonly #now: () => number;
  #armedAt = Number.POSITIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** Calls `fire` at `at` (epoch ms) unless `delete`d first. */
  add(at: number, fire: () => void): Deadline {
    const entry = { at, fire };
    this.#entries.add(entry);
    if (at < this.#armedAt) this.#arm(at);
    return entry;
  }

  delete(entry: Deadline): void {
    this.#entries.delete(entry);
  }

  /** Deadlines registered and not yet fired or deleted. */
  get size(): number {
    return this.#entries.size;
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
    for (const entry of this.#entries) {
      if (entry.at <= now) {
        this.#entries.delete(entry);
        entry.fire();
      } else if (entry.at < next) {
        next = entry.at;
      }
    }
    if (next !== Number.POSITIVE_INFINITY) this.#arm(next);
  }
}
