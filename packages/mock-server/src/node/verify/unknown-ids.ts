/**
 * Ids no server has issued that still satisfy the parameter's schema (its `pattern`, `format`, lengths), so a probe
 * with one reaches the not-found path and not the validation path: `pay_VerifyUnknown0000000000000` for
 * `^pay_[0-9A-Za-z]{1,60}$`. Candidates are built from the pattern's literal prefix and checked against the schema;
 * a schema none of them satisfies gets none (the probe then says so instead of sending a value it knows is invalid).
 */
import { getPointer } from "../../core/document.ts";
import { entradaDocument } from "../../index.ts";

interface StringSchema {
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  enum?: unknown[];
}

/** The literal text a pattern starts with (`^pay_…` → `pay_`), up to its first metacharacter. */
function literalPrefix(pattern: string): string {
  const body = pattern.startsWith("^") ? pattern.slice(1) : "";
  const match = /^(?:[A-Za-z0-9_-]|\\.)*/.exec(body)?.[0] ?? "";
  return match.replace(/\\(.)/g, "$1");
}

const FORMATS: Record<string, string> = {
  uuid: "00000000-0000-4000-8000-00000000dead",
  "date-time": "2000-01-01T00:00:00Z",
  date: "2000-01-01",
};

function satisfies(schema: StringSchema, value: string): boolean {
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return false;
  if (schema.minLength !== undefined && value.length < schema.minLength) return false;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  return true;
}

/** An unknown value for the schema at `pointer`, or null when none of the candidates satisfies it. */
export function unknownId(pointer: string | null): string | null {
  let schema = ((pointer ? getPointer(entradaDocument, pointer) : undefined) ?? {}) as StringSchema & {
    $ref?: string;
  };
  for (let depth = 0; depth < 10 && typeof schema.$ref === "string"; depth++)
    schema = (getPointer(entradaDocument, schema.$ref.slice(1)) ?? {}) as typeof schema;
  if (Array.isArray(schema.enum)) return null;
  const format = schema.format ? FORMATS[schema.format] : undefined;
  if (format !== undefined) return format;
  const prefix = schema.pattern ? literalPrefix(schema.pattern) : "";
  const candidates = [
    `${prefix}VerifyUnknown0000000000000`,
    `${prefix}verifyunknown0000000000000`,
    `${prefix}verify-unknown`,
    `${prefix}0000000000000000000000000`,
    `${prefix}verifyunknown`,
    `${prefix}0`,
  ];
  return candidates.find((candidate) => satisfies(schema, candidate)) ?? null;
}
