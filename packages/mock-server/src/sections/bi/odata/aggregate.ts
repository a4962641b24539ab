import type { Aggregate, ApplyPlan } from "./apply.ts";
import { badRequest } from "./errors.ts";
import { compareScalars, compile, compileFilter, type Row, type Scalar } from "./evaluate.ts";
import type { EdmType } from "./parser.ts";

/** Most groups (rows of the result) one aggregation makes; more is a 400 saying to group more coarsely. */
export const MAX_GROUPS = 100_000;
/** Most distinct values `countdistinct` keeps across all groups. */
export const MAX_DISTINCT = 2_000_000;

type Mutable = Record<string, Scalar>;

/** One aggregate's running state, per group (groups are numbered in order of appearance). */
interface Accumulator {
  /** `weight`: how many rows with this value (counts only; the others take rows one by one). */
  add(group: number, value: Scalar, weight?: number): void;
  value(group: number): Scalar;
}

const round = (n: number, places: number) => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

function accumulator(aggregate: Aggregate, distinct: { n: number }): Accumulator {
  switch (aggregate.method) {
    case "count": {
      const n: number[] = [];
      return {
        add(g, _v, weight = 1) {
          n[g] = (n[g] ?? 0) + weight;
        },
        value: (g) => n[g] ?? 0,
      };
    }
    case "sum":
    case "average": {
      const sum: number[] = [];
      const n: number[] = [];
      const decimal = aggregate.type === "Decimal";
      return {
        add(g, v) {
          if (typeof v !== "number") return;
          sum[g] = (sum[g] ?? 0) + v;
          n[g] = (n[g] ?? 0) + 1;
        },
        value(g) {
          const count = n[g] ?? 0;
          if (count === 0) return null;
          const total = sum[g] as number;
          // Decimal (18, 2) sums stay at scale 2 (floating-point noise rounded away); averages at scale 4.
          if (aggregate.method === "average") return round(total / count, 4);
          return decimal ? round(total, 2) : total;
        },
      };
    }
    case "min":
    case "max": {
      const best: Scalar[] = [];
      const sign = aggregate.method === "min" ? -1 : 1;
      return {
        add(g, v) {
          if (v === null) return;
          const current = best[g];
          if (current === undefined || current === null || sign * compareScalars(v, current) > 0) best[g] = v;
        },
        value: (g) => best[g] ?? null,
      };
    }
    case "countdistinct": {
      const sets: Set<Scalar>[] = [];
      return {
        add(g, v) {
          if (v === null) return;
          let set = sets[g];
          if (!set) sets[g] = set = new Set();
          const before = set.size;
          set.add(v);
          if (set.size > before && ++distinct.n > MAX_DISTINCT)
            throw badRequest("applyGroupLimit", { limit: MAX_DISTINCT }, "$apply");
        },
        value: (g) => sets[g]?.size ?? 0,
      };
    }
  }
}

/** DateTimeOffset values travel as epoch ms while aggregating; rows show them as RFC 3339 again. */
const shown = (v: Scalar, type: EdmType | undefined): Scalar =>
  type === "DateTimeOffset" && typeof v === "number" ? new Date(v).toISOString() : v;

/**
 * One evaluation of an `$apply` plan: a loader writes each source row's properties (`plan.reads`, date-times as
 * epoch ms) into `scratch` and calls `visit()`; `result()` then gives the aggregated rows in group order. Memory
 * is the groups (at most MAX_GROUPS) and the distinct values (at most MAX_DISTINCT), never the source rows.
 */
export class ApplyRun {
  readonly scratch: Mutable = {};
  readonly #plan: ApplyPlan;
  readonly #steps: ((row: Mutable) => boolean)[];
  readonly #by: string[];
  readonly #values: ((row: Mutable) => Scalar)[];
  readonly #accumulators: Accumulator[];
  readonly #groups = new Map<Scalar, unknown>();
  readonly #keys: Scalar[][] = [];
  readonly #types: Readonly<Record<string, EdmType>>;

  constructor(plan: ApplyPlan) {
    this.#plan = plan;
    this.#types = plan.rowTypes;
    this.#steps = plan.pre.map((step) => {
      if (step.kind === "filter") {
        const test = compileFilter(step.expr);
        return (row) => test(row);
      }
      const items = step.items.map((i) => ({ alias: i.alias, f: compile(i.expr) }));
      return (row) => {
        for (const item of items) row[item.alias] = item.f(row);
        return true;
      };
    });
    const grouping = plan.grouping;
    this.#by = grouping.by;
    const distinct = { n: 0 };
    this.#values = grouping.aggregates.map((a) => (a.expr ? compile(a.expr) : () => null));
    this.#accumulators = grouping.aggregates.map((a) => accumulator(a, distinct));
    // A plain aggregate(...) yields its one row even when no row passes.
    if (this.#by.length === 0) this.#group(this.scratch);
  }

  /**
   * Takes the row in `scratch`; `skip` leading steps were already applied by the loader. `weight` > 1 stands for
   * that many equal rows, for a plan whose aggregates are all counts (rows counted per group beforehand).
   */
  visit(skip = 0, weight = 1): void {
    const row = this.scratch;
    for (let s = skip; s < this.#steps.length; s++)
      if (!(this.#steps[s] as (r: Mutable) => boolean)(row)) return;
    const g = this.#group(row);
    for (let i = 0; i < this.#accumulators.length; i++)
      (this.#accumulators[i] as Accumulator).add(g, (this.#values[i] as (r: Mutable) => Scalar)(row), weight);
  }

  /** The group of a row: nested maps, one level per grouping property (no key string built per row). */
  #group(row: Mutable): number {
    const by = this.#by;
    let level: Map<Scalar, unknown> = this.#groups;
    const last = by.length - 1;
    for (let i = 0; i < last; i++) {
      const v = row[by[i] as string] ?? null;
      let next = level.get(v) as Map<Scalar, unknown> | undefined;
      if (!next) {
        next = new Map();
        level.set(v, next);
      }
      level = next;
    }
    const leaf = last < 0 ? "" : (row[by[last] as string] ?? null);
    let g = level.get(leaf) as number | undefined;
    if (g === undefined) {
      g = this.#keys.length;
      if (g >= MAX_GROUPS) throw badRequest("applyGroupLimit", { limit: MAX_GROUPS }, "$apply");
      level.set(leaf, g);
      this.#keys.push(by.map((name) => row[name] ?? null));
    }
    return g;
  }

  /** The aggregated rows, ordered by their grouping values, after the plan's filters on them. */
  result(): Row[] {
    const order = [...this.#keys.keys()].sort((a, b) => {
      const x = this.#keys[a] as Scalar[];
      const y = this.#keys[b] as Scalar[];
      for (let i = 0; i < x.length; i++) {
        const c = compareScalars(x[i] ?? null, y[i] ?? null);
        if (c !== 0) return c;
      }
      return 0;
    });
    const aggregates = this.#plan.grouping.aggregates;
    let rows: Row[] = order.map((g) => {
      const out: Mutable = {};
      const key = this.#keys[g] as Scalar[];
      this.#by.forEach((name, i) => {
        out[name] = shown(key[i] ?? null, this.#types[name]);
      });
      aggregates.forEach((a, i) => {
        out[a.alias] = shown((this.#accumulators[i] as Accumulator).value(g), a.type);
      });
      return out;
    });
    for (const filter of this.#plan.post) rows = rows.filter(compileFilter(filter));
    return rows;
  }
}
