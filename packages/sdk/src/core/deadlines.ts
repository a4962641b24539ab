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

export interface Deadlines {
  /** Calls `fire` at `at` (epoch ms) unless `delete`d first. */
  add(at: number, fire: () => void): Deadline;
  delete(entry: Deadline): void;
  /** Deadlines registered and not yet fired or deleted: exactly the entries held. */
  readonly size: number;
}

export function newDeadlines(): Deadlines {
  const entries = new Set<Deadline>();
  let armedAt = Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = (at: number): void => {
    clearTimeout(timer);
    armedAt = at;
    timer = setTimeout(() => {
      armedAt = Infinity;
      const now = Date.now();
      let next = Infinity;
      for (const entry of entries) {
        if (entry.at > now) next = Math.min(next, entry.at);
        else {
          entries.delete(entry);
          entry.fire();
        }
      }
      if (next < armedAt) arm(next);
    }, at - Date.now());
    (timer as { unref?: () => void }).unref?.();
  };
  return {
    add(at, fire) {
      const entry = { at, fire };
      entries.add(entry);
      if (at < armedAt) arm(at);
      return entry;
    },
    delete(entry) {
      entries.delete(entry);
    },
    get size() {
      return entries.size;
    },
  };
}
