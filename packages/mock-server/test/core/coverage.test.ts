import { expect, it } from "vitest";
import { createEntradaMock } from "../../src/index.ts";

it("implements every operation of the bundled contract, and every webhook kind it emits exists there", () => {
  const core = createEntradaMock();
  expect(core.operations.length).toBeGreaterThanOrEqual(18);
  expect(core.unimplemented).toEqual([]);
  const kinds = Object.keys(core.document.webhooks ?? {});
  expect(kinds).toHaveLength(30);
});
