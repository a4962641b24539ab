/** A seed setting that must be a positive integer (a cap, a lifetime in seconds); anything else takes the default. */
export function positiveInt(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}
