/**
 * Tables of records by id, and sets of ids, for a section's slice where keys churn: the shop's carts and the ids
 * the cart cap evicted take an insert and a delete on every cart creation once the cap is reached. A plain object
 * used as a table of thousands of churning keys falls into dictionary mode, where each insert and `delete` costs
 * several times a Map's. These are a `Map` and a `Set` while the engine runs, and serialize (`toJSON`) as the plain
 * objects snapshots and seeds hold, so GET /__mock/snapshot writes the same JSON; a slice restored from JSON is
 * turned back into tables by its accessor (`shopSlice`).
 */

/** Records by id, in insertion order (the order the snapshot's object lists them in). */
export class IdTable<Value> extends Map<string, Value> {
  /** A table of a snapshot's object (or an existing table, as it is). */
  static of<Value>(records: IdTable<Value> | Record<string, Value> | undefined): IdTable<Value> {
    return records instanceof IdTable ? records : new IdTable<Value>(Object.entries(records ?? {}));
  }

  toJSON(): Record<string, Value> {
    return Object.fromEntries(this);
  }
}

/** A set of ids; serialized as an object with `1` for each id. */
export class IdSet extends Set<string> {
  static of(ids: IdSet | Record<string, 1> | undefined): IdSet {
    return ids instanceof IdSet ? ids : new IdSet(Object.keys(ids ?? {}));
  }

  toJSON(): Record<string, 1> {
    const json: Record<string, 1> = {};
    for (const id of this) json[id] = 1;
    return json;
  }
}
