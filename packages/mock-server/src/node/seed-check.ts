import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import historySchema from "../sections/bi/seed/history.schema.json" with { type: "json" };
import catalogueSchema from "../sections/shop/seed/catalogue.schema.json" with { type: "json" };
import surveysSchema from "../sections/survey/seed/surveys.schema.json" with { type: "json" };

const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);

/**
 * The built-in seed files and their schemas: the shop catalogue (`src/sections/shop/seed/catalogue.json`), the
 * surveys (`src/sections/survey/seed/surveys.json`) and what the BI history is drawn from
 * (`src/sections/bi/seed/history.json`).
 */
const validators = {
  catalogue: ajv.compile(catalogueSchema),
  surveys: ajv.compile(surveysSchema),
  history: ajv.compile(historySchema),
};

export type SeedFile = keyof typeof validators;

/**
 * Checks a built-in seed file against its schema and the message files: returns readable problems
 * (`/kinds/2/capacity must be integer`), none when it is sound. `messageKeys` are the keys of the default
 * culture's message file; a `$msg` naming another key is a problem too.
 */
export function checkSeedFile(file: SeedFile, seed: unknown, messageKeys: ReadonlySet<string>): string[] {
  const validate = validators[file];
  const problems = validate(seed)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
  const walk = (value: unknown, at: string): void => {
    if (value === null || typeof value !== "object") return;
    const key = (value as { $msg?: unknown }).$msg;
    if (typeof key === "string" && !messageKeys.has(key))
      problems.push(`${at}/$msg names no message: "${key}"`);
    for (const [k, v] of Object.entries(value)) walk(v, `${at}/${k}`);
  };
  walk(seed, "");
  return problems;
}

/** Checks the built-in catalogue seed (see `checkSeedFile`). */
export function checkCatalogueSeed(seed: unknown, messageKeys: ReadonlySet<string>): string[] {
  return checkSeedFile("catalogue", seed, messageKeys);
}
