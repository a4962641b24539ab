import contract from "@entrada/openapi/openapi.json" with { type: "json" };
import { describe, expect, it } from "vitest";
import { biEntitySets } from "../../src/bi/index.ts";

type Schema = {
  $ref?: string;
  type?: string | string[];
  format?: string;
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  items?: Schema;
};
const doc = contract as unknown as {
  paths: Record<
    string,
    { get?: { responses: Record<string, { content?: Record<string, { schema: Schema }> }> } }
  >;
  components: { schemas: Record<string, Schema> };
};
const resolve = (s: Schema): Schema =>
  s.$ref ? resolve(doc.components.schemas[s.$ref.replace("#/components/schemas/", "")] as Schema) : s;

/** The builder's kind for a contract property schema (`?` when it admits null). */
function kindOf(raw: Schema): string {
  const variants = raw.oneOf ?? [raw];
  let nullable = false;
  const kinds = new Set<string>();
  for (const v of variants.map(resolve)) {
    const types = Array.isArray(v.type) ? v.type : [v.type];
    for (const t of types) {
      if (t === "null") nullable = true;
      else if (t === "string")
        kinds.add(
          v.format === "date-time"
            ? "datetime"
            : v.format === "date"
              ? "date"
              : v.format === "uuid"
                ? "guid"
                : "string",
        );
      else if (t === "integer") kinds.add("int");
      else if (t === "number") kinds.add("decimal");
      else if (t === "boolean") kinds.add("boolean");
      else kinds.add(`unsupported:${String(t)}`);
    }
  }
  expect(kinds.size).toBe(1);
  return `${[...kinds][0]}${nullable ? "?" : ""}`;
}

describe("BI metadata matches the contract", () => {
  it("has exactly the contract's entity sets", () => {
    const sets = Object.keys(doc.paths)
      .filter((p) => /^\/bi\/v1\/odata\/[A-Z]\w+$/.test(p))
      .map((p) => p.split("/").pop());
    expect(sets.sort()).toEqual(Object.keys(biEntitySets).sort());
  });

  for (const [set, properties] of Object.entries(biEntitySets)) {
    it(`${set}: same properties, order and kinds as the contract's row schema`, () => {
      const page =
        doc.paths[`/bi/v1/odata/${set}`]?.get?.responses["200"]?.content?.["application/json"]?.schema;
      const row = resolve(resolve(page as Schema).properties?.value?.items as Schema);
      const fromContract = Object.fromEntries(
        Object.entries(row.properties ?? {}).map(([k, v]) => [k, kindOf(v)]),
      );
      expect(Object.keys(properties)).toEqual(Object.keys(fromContract));
      expect(properties).toEqual(fromContract);
    });
  }
});
