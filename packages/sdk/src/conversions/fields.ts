import { SkipConversion } from "./result.ts";

/**
 * Readers for a webhook payload that came in as JSON: each returns the typed value at a JSON pointer or throws a
 * `SkipConversion` naming the field, so a mapper never forwards a conversion with a hole in it.
 */
export function at(root: unknown, pointer: string): unknown {
  let node = root;
  for (const part of pointer.split("/").slice(1)) {
    if (node === null || typeof node !== "object") return undefined;
    node = Array.isArray(node) ? node[Number(part)] : (node as Record<string, unknown>)[part];
  }
  return node;
}

function present(root: unknown, pointer: string): unknown {
  const value = at(root, pointer);
  if (value === undefined || value === null)
    throw new SkipConversion("missing_field", `missing ${pointer}`, pointer);
  return value;
}

export function str(root: unknown, pointer: string): string {
  const value = present(root, pointer);
  if (typeof value !== "string" || value === "")
    throw new SkipConversion("invalid_field", `${pointer} must be a non-empty string`, pointer);
  return value;
}

export function optionalStr(root: unknown, pointer: string): string | undefined {
  const value = at(root, pointer);
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function int(root: unknown, pointer: string, min = Number.MIN_SAFE_INTEGER): number {
  const value = present(root, pointer);
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < min)
    throw new SkipConversion("invalid_field", `${pointer} must be an integer ≥ ${min}`, pointer);
  return value;
}

export function list(root: unknown, pointer: string): unknown[] {
  const value = present(root, pointer);
  if (!Array.isArray(value))
    throw new SkipConversion("invalid_field", `${pointer} must be an array`, pointer);
  return value;
}

export function instant(root: unknown, pointer: string): Date {
  const text = str(root, pointer);
  const date = new Date(text);
  if (!/^\d{4}-\d\d-\d\dT/.test(text) || Number.isNaN(date.getTime()))
    throw new SkipConversion("invalid_field", `${pointer} must be an RFC 3339 date-time`, pointer);
  return date;
}

export function currency(root: unknown, pointer: string): string {
  const code = str(root, pointer);
  if (!/^[A-Z]{3}$/.test(code))
    throw new SkipConversion("invalid_field", `${pointer} must be an ISO 4217 code`, pointer);
  return code;
}

/**
 * Minor units to the decimal value analytics tools expect, with the currency's own number of decimals — the same
 * rule as the shop widget's client-side events (`Intl.NumberFormat`'s `maximumFractionDigits`), so both sides of
 * one order report the same `value`.
 */
export function majorUnits(amount: number, code: string): number {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions()
      .maximumFractionDigits ?? 2;
  return amount / 10 ** digits;
}
