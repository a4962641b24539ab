import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  OUTPUT,
  readContract,
  renderSchema,
  renderSections,
  SCHEMA_OUTPUT,
} from "../../scripts/generate-operations.mjs";
import { createClient } from "../../src/index.ts";
import { CREDENTIALS } from "../helpers.ts";

const { operations, openapi, schema } = readContract() as {
  operations: Record<string, { method: string; path: string; tag: string }>;
  openapi: unknown;
  schema: string;
};

describe("generated sections", () => {
  it("is up to date with the contract (run `pnpm --filter @entrada/sdk generate`)", () => {
    expect(readFileSync(OUTPUT, "utf8")).toBe(renderSections(operations, openapi));
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

  it("writes each operation as a method with its TSDoc, method and path, for any operation the contract adds", () => {
    const doc = openapi as { paths: Record<string, Record<string, unknown>> };
    const withVoucher = {
      ...operations,
      redeemVoucher: { method: "post", path: "/shop/v1/cart/{id}/vouchers", tag: "shop" },
      listGiftCards: { method: "get", path: "/gifts/v1/cards", tag: "gifts" },
    };
    const contract = {
      ...doc,
      paths: {
        ...doc.paths,
        "/shop/v1/cart/{id}/vouchers": {
          post: {
            summary: "Redeem a voucher",
            responses: {
              "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/Cart" } } } },
            },
          },
        },
        "/gifts/v1/cards": {
          get: { summary: "List gift cards", responses: { "200": { content: { "application/pdf": {} } } } },
        },
      },
    };
    const text = renderSections(withVoucher, contract);
    expect(text).toContain(
      [
        "    /**",
        "     * Redeem a voucher.",
        "     *",
        "     * `POST /shop/v1/cart/{id}/vouchers`",
        "     */",
        '    redeemVoucher: op<operations["redeemVoucher"], Cart, OperationProblems["redeemVoucher"]>("POST", "/shop/v1/cart/{id}/vouchers"),',
      ].join("\n"),
    );
    // A new tag becomes a section of its own, in the client's sections too.
    expect(text).toContain("export function giftsSection(op: OperationFactory) {");
    expect(text).toContain('"GET", "/gifts/v1/cards", { read: blobBody })');
    // Only the body readers the methods name are imported (an entry carries only what its operations need).
    expect(text).toContain('import { blobBody, mixedBody, textBody } from "../core/bodies.ts";');
    expect(text).toContain("    gifts: giftsSection(op),");
    expect(text).toContain("  readonly gifts: GiftsSection;");
  });
});
