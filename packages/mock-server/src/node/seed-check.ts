import { Ajv2020 } from "ajv/dist/2020.js";
import schema from "../sections/shop/seed/catalogue.schema.json" with { type: "json" };

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(schema);

/**
 * Checks the built-in catalogue seed (`src/sections/shop/seed/catalogue.json`) against its schema and the message
 * files: returns readable problems (`/kinds/2/capacity must be integer`), none when it is sound. `messageKeys` are
 * the keys of the default culture's message file; a `$msg` naming another key is a problem too.
 */
export function checkCatalogueSeed(seed: unknown, messageKeys: ReadonlySet<string>): string[] {
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
