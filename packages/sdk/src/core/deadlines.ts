/**
 * One timer for every in-flight attempt of a client instead of a `setTimeout`/`clearTimeout` pair per request:
 * attempts register their deadline, the timer is armed for the earliest one and re-armed as they pass. The timer
 * is unref'd where the runtime allows it, so an idle client never keeps a process alive (in-flight sockets do).
 * Bounded: an entry is held from `add` until it fires or is deleted.
 */

export interface Deadline {
  at: number;
  fire: () => void;
}

export class Deadlines {
  readonly #entries = new Set<Deadline>();
  #armedAt = Number.POSITIVE_INFINITY;
  #timer: ReturnType<typeof setTimeout> | undefined;

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

  /** Entries held: exactly the live ones. */
  get held(): number {
    return this.#entries.size;
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#armedAt = at;
    const timer = setTimeout(() => {
      this.#armedAt = Number.POSITIVE_INFINITY;
      const now = Date.now();
      let next = Number.POSITIVE_INFINITY;
      for (const entry of this.#entries) {
        if (entry.at > now) next = Math.min(next, entry.at);
        else {
          this.#entries.delete(entry);
          entry.fire();
        }
      }
      if (next < this.#armedAt) this.#arm(next);
    }, at - Date.now());
    (timer as { unref?: () => void }).unref?.();
    this.#timer = timer;
  }
}
