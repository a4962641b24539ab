/** A tiny typed event emitter; `clear()` drops every listener (used on unmount). */
export class Emitter<M> {
  #listeners = new Map<keyof M, Set<(payload: never) => void>>();

  on<K extends keyof M>(event: K, listener: (payload: M[K]) => void): () => void {
    let set = this.#listeners.get(event);
    if (set === undefined) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as (payload: never) => void);
    return () => {
      set.delete(listener as (payload: never) => void);
    };
  }

  emit<K extends keyof M>(event: K, payload: M[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      try {
        (listener as (payload: M[K]) => void)(payload);
      } catch (error) {
        reportListenerError(error);
      }
    }
  }

  count(event: keyof M): number {
    return this.#listeners.get(event)?.size ?? 0;
  }

  clear(): void {
    this.#listeners.clear();
  }
}

/** Host code (or a failed load) that throws must not break the widget: log it and go on. */
export function reportListenerError(error: unknown): void {
  console.error("[entrada-shop]", error);
}
