import { type BiEntitySet, biEntitySets, type ODataKind } from "@entrada/sdk/bi";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { closest } from "fastest-levenshtein";

type Obj = Record<string, unknown>;

/** A tool argument that does not fit: the message says which part and what to send instead. */
export class ArgumentProblem extends Error {}

export const DATASETS = Object.keys(biEntitySets) as BiEntitySet[];

/** The property's kind in a dataset, or an ArgumentProblem naming the closest property. */
export function kindOf(dataset: BiEntitySet, property: string, where: string): ODataKind {
  const spec = (biEntitySets[dataset] as Record<string, string>)[property];
  if (spec === undefined) {
    const names = Object.keys(biEntitySets[dataset]);
    throw new ArgumentProblem(
      `\`${where}\`: ${dataset} has no property \`${property}\`; did you mean \`${closest(property, names)}\`? Its properties: ${names.join(", ")}.`,
    );
  }
  return spec.replace("?", "") as ODataKind;
}

const ajv = new Ajv({ strict: false, allErrors: true });
const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks arguments against a tool's input schema; `null` when they fit, else one paragraph naming each bad part
 * (by its path, e.g. `aggregates/0/method`) and a valid call to copy.
 */
export function checkArguments(tool: string, schema: Obj, example: Obj, args: unknown): string | null {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (validate(args)) return null;
  const parts = [...new Set((validate.errors ?? []).map((e) => explain(tool, e)))];
  return `Invalid arguments for ${tool}: ${parts.join(" ")} A valid call: ${JSON.stringify(example)}.`;
}

function explain(tool: string, e: ErrorObject): string {
  const path = e.instancePath.replace(/^\//, "");
  const at = path ? `\`${path}\`` : "The arguments";
  const p = e.params as Obj;
  switch (e.keyword) {
    case "required":
      return `\`${path ? `${path}/` : ""}${String(p.missingProperty)}\` is required.`;
    case "additionalProperties":
      return `\`${path ? `${path}/` : ""}${String(p.additionalProperty)}\` is not an argument of ${tool}.`;
    case "enum":
      return `${at} must be one of ${(p.allowedValues as unknown[]).map((v) => `\`${String(v)}\``).join(", ")}.`;
    case "type":
      return `${at} must be ${String(p.type)}.`;
    case "pattern":
      return `${at} does not have the expected form (${String(p.pattern)}).`;
    case "minimum":
    case "maximum":
      return `${at} must be ${e.keyword === "minimum" ? "at least" : "at most"} ${String(p.limit)}.`;
    case "minItems":
    case "maxItems":
      return `${at} must have ${e.keyword === "minItems" ? "at least" : "at most"} ${String(p.limit)} items.`;
    case "minLength":
    case "maxLength":
      return `${at} must have ${e.keyword === "minLength" ? "at least" : "at most"} ${String(p.limit)} characters.`;
    default:
      return `${at} ${e.message ?? "does not fit the input schema"}.`;
  }
}
