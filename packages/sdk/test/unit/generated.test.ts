import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  OUTPUT,
  readContract,
  renderOperations,
  renderSchema,
  SCHEMA_OUTPUT,
} from "../../scripts/generate-operations.mjs";
import { createClient } from "../../src/index.ts";
import { CREDENTIALS } from "../helpers.ts";

const { operations, openapi, schema } = readContract() as {
  operations: Record<string, { method: string; path: string; tag: string }>;
  openapi: unknown;
  schema: string;
};

describe("generated operation table", () => {
  it("is up to date with the contract (run `pnpm --filter @entrada/sdk generate`)", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(renderOperations(operations, openapi));
    expect(readFileSync(SCHEMA_OUTPUT, "utf8")).toBe(renderSchema(schema));
  });

  it("makes every operation of the contract reachable under its tag's section", () => {
    const client = createClient({
      ...CREDENTIALS,
      fetch: async () => new Response(null, { status: 204 }),
    }) as unknown as Record<
      string,
      Record<string, { operationId: string; method: string; path: string; orThrow: unknown }>
    >;
    expect(Object.keys(operations).length).toBeGreaterThan(0);
    for (const [operationId, op] of Object.entries(operations)) {
      const method = client[op.tag]?.[operationId];
      expect(method, `${op.tag}.${operationId}`).toBeTypeOf("function");
      expect(method?.operationId).toBe(operationId);
      expect(method?.method).toBe(op.method.toUpperCase());
      expect(method?.path).toBe(op.path);
      expect(method?.orThrow).toBeTypeOf("function");
    }
  });
});
