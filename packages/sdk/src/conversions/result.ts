/** Why a webhook event was not turned into a conversion. */
export type ConversionSkipCode =
  /** The event's `type` is not one this mapper converts (or not an Entrada kind at all). */
  | "unknown_kind"
  /** A field the conversion needs is absent (`field` names it, as a JSON pointer into the event). */
  | "missing_field"
  /** A field is present but has the wrong type or format. */
  | "invalid_field";

/** A conversion that was built: send `payload` as the request body. */
export interface ConversionBuilt<P> {
  ok: true;
  /** The webhook kind it came from, e.g. `cart.completed`. */
  kind: string;
  payload: P;
  /** Adjustments made to stay within the destination's limits (e.g. items cut to 200), for your log. */
  warnings: string[];
}

/** The event was skipped: nothing half-built is returned. Log `reason`. */
export interface ConversionSkipped {
  ok: false;
  kind: string;
  code: ConversionSkipCode;
  /** JSON pointer of the field at fault (`/data/order/total/amount`), for `missing_field`/`invalid_field`. */
  field?: string;
  /** A sentence for the log: what was skipped and why. */
  reason: string;
}

export type ConversionResult<P> = ConversionBuilt<P> | ConversionSkipped;

/** Thrown internally by the field readers; turned into a `ConversionSkipped` at the mapper's edge. */
export class SkipConversion extends Error {
  readonly code: ConversionSkipCode;
  readonly field: string | undefined;
  constructor(code: ConversionSkipCode, reason: string, field?: string) {
    super(reason);
    this.code = code;
    this.field = field;
  }
}

/** Runs a mapper, turning a `SkipConversion` into a typed skipped result (anything else is a bug and rethrows). */
export async function guarded<P>(
  kind: string,
  build: (warnings: string[]) => P | Promise<P>,
): Promise<ConversionResult<P>> {
  const warnings: string[] = [];
  try {
    return { ok: true, kind, payload: await build(warnings), warnings };
  } catch (e) {
    if (!(e instanceof SkipConversion)) throw e;
    return {
      ok: false,
      kind,
      code: e.code,
      reason: e.message,
      ...(e.field === undefined ? {} : { field: e.field }),
    };
  }
}
