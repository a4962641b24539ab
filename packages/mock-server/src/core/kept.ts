/**
 * Values derived from keys that come again (parsed request targets, formatted days, compiled patterns, encoded
 * pictures), kept by key and bounded: emptied when it holds `limit` of them. A key that comes again then costs one
 * more derivation; keeping it never costs an eviction per new key (each cart's own URL is new).
 */
export class Kept<Key, Value> {
  readonly #values = new Map<Key, Value>();
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  /** The value kept for `key`, else `make(key)`, kept now. (Pass a function that captures nothing on hot paths.) */
  get(key: Key, make: (key: Key) => Value): Value {
    let value = this.#values.get(key);
    if (value === undefined) {
      value = make(key);
      if (this.#values.size >= this.#limit) this.#values.clear();
      this.#values.set(key, value);
    }
    return value;
  }

  /** How many values are kept. */
  get size(): number {
    return this.#values.size;
  }
}
