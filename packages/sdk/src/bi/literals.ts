import type { ODataKind } from "./metadata.ts";

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,12})?)?(Z|[+-]\d{2}:\d{2})$/i;

const invalid = (kind: ODataKind, value: unknown): never => {
  throw new TypeError(`${JSON.stringify(value) ?? String(value)} is not a valid ${kind} literal`);
};

const validDate = (kind: ODataKind, value: Date): Date =>
  Number.isNaN(value.getTime()) ? invalid(kind, "Invalid Date") : value;

/**
 * Writes `value` as an OData 4.01 URL literal for a property of `kind` (ABNF `primitiveLiteral`): strings
 * single-quoted with `'` doubled, everything else bare. Values that do not fit the kind throw a TypeError, so no
 * input can change the shape of the expression.
 */
export function formatLiteral(kind: ODataKind, value: unknown): string {
  if (value === null) return "null";
  switch (kind) {
    case "string":
      return typeof value === "string" ? `'${value.replaceAll("'", "''")}'` : invalid(kind, value);
    case "guid":
      return typeof value === "string" && GUID.test(value) ? value : invalid(kind, value);
    case "int":
      return Number.isSafeInteger(value) ? String(value) : invalid(kind, value);
    case "decimal":
      return typeof value === "number" && Number.isFinite(value) ? String(value) : invalid(kind, value);
    case "boolean":
      return typeof value === "boolean" ? String(value) : invalid(kind, value);
    case "date":
      if (value instanceof Date) return validDate(kind, value).toISOString().slice(0, 10);
      return typeof value === "string" && DATE.test(value) ? value : invalid(kind, value);
    case "datetime":
      if (value instanceof Date) return validDate(kind, value).toISOString().replace(".000Z", "Z");
      return typeof value === "string" && DATETIME.test(value) && !Number.isNaN(Date.parse(value))
        ? value.toUpperCase()
        : invalid(kind, value);
  }
}
