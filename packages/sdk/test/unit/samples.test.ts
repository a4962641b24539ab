import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readContract, SAMPLES_MODULE_OUTPUT, SAMPLES_OUTPUT } from "../../scripts/generate-operations.mjs";
import { literal, renderSamples, renderSamplesJson, renderSamplesModule } from "../../scripts/samples.mjs";

const { operations, openapi } = readContract() as {
  operations: Record<string, { method: string; path: string; tag: string; scopes: string[] }>;
  openapi: { paths: Record<string, Record<string, { requestBody?: unknown }>> };
};
const samples = renderSamples(operations, openapi);

describe("SDK samples", () => {
  it("are up to date with the contract, as shipped and as type-checked (run `pnpm --filter @entrada/sdk generate`)", () => {
    expect(readFileSync(SAMPLES_OUTPUT, "utf8")).toBe(renderSamplesJson(samples));
    expect(readFileSync(SAMPLES_MODULE_OUTPUT, "utf8")).toBe(renderSamplesModule(samples));
  });

  it("cover every operation with its section, method, scope and the contract's examples", () => {
    expect(Object.keys(samples)).toEqual(Object.keys(operations));
    for (const [id, op] of Object.entries(operations)) {
      const source = samples[id]?.source ?? "";
      expect(source.startsWith('import { createClient } from "@entrada/sdk";\n')).toBe(true);
      expect(source).toContain(`await client.${op.tag}.${id}(`);
      if (op.scopes[0]) expect(source).toContain(`scope: "${op.scopes[0]}"`);
      const body = openapi.paths[op.path]?.[op.method.toLowerCase()]?.requestBody;
      if (body) expect(source, id).toContain("body: ");
    }
    expect(samples.getEvent?.source).toContain('params: { path: { eventId: "evt_');
  });

  it("writes literals the way a person would", () => {
    expect(literal({ a: 1, "b-c": [true, null] })).toBe('{ a: 1, "b-c": [true, null] }');
    expect(literal({ text: "x".repeat(60) }, 2)).toBe(`{\n    text: "${"x".repeat(60)}",\n  }`);
  });
});
