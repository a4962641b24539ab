// The SDK's problem unions and `Culture` type are generated from the contract's catalogue data
// (`@entrada/openapi/catalogue.json`, built from packages/openapi/src/catalogue), never from prose.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  operationProblems,
  PROBLEMS_OUTPUT,
  readContract,
  renderProblems,
} from "../../scripts/generate-operations.mjs";

interface Catalogue {
  cultures: { tag: string; name: string; default: boolean }[];
  problems: { slug: string; status: number; mockOnly: boolean; operations: "*" | string[] }[];
}
const { operations, catalogue } = readContract() as {
  operations: Record<string, unknown>;
  catalogue: Catalogue;
};

describe("generated problems.ts", () => {
  it("is up to date with the catalogue (run `pnpm --filter @entrada/sdk generate`)", () => {
    expect(readFileSync(PROBLEMS_OUTPUT, "utf8")).toBe(renderProblems(operations, catalogue));
  });

  it("does not read DECISIONS.md", () => {
    const script = readFileSync(new URL("../../scripts/generate-operations.mjs", import.meta.url), "utf8");
    expect(script).not.toMatch(/DECISIONS\.md"|problem catalogue row|supported cultures are/);
  });

  it("an operation's union is the slugs whose data names it, mock-only ones left out", () => {
    const local: Catalogue = {
      cultures: [{ tag: "de-CH", name: "Deutsch", default: true }],
      problems: [
        { slug: "sold-out", status: 409, mockOnly: false, operations: ["addCartItem"] },
        { slug: "internal-error", status: 500, mockOnly: false, operations: "*" },
        { slug: "not-implemented", status: 501, mockOnly: true, operations: "*" },
      ],
    };
    expect(operationProblems(local, "addCartItem")).toEqual(["sold-out", "internal-error"]);
    expect(operationProblems(local, "getCart")).toEqual(["internal-error"]);
  });

  it("a culture added to the data joins the Culture type", () => {
    const withRomansh = {
      ...catalogue,
      cultures: [...catalogue.cultures, { tag: "rm-CH", name: "Rumantsch", default: false }],
    };
    const text = renderProblems(operations, withRomansh);
    expect(text).toContain('export type Culture = "de-CH" | "fr-CH" | "it-CH" | "en-GB" | "rm-CH";');
    expect(text).toMatch(/export type ProblemSlug = "validation-error" \| .*"internal-error";/);
    expect(text).not.toContain('"not-implemented"');
  });
});
