import { describe, expect, it } from "vitest";
import { editDistance } from "../../src/core/edit-distance.ts";

describe("editDistance (shared by the BI feed's and the docs server's suggestions)", () => {
  it("counts insertions, deletions and substitutions", () => {
    expect(editDistance("", "")).toBe(0);
    expect(editDistance("abc", "")).toBe(3);
    expect(editDistance("", "abc")).toBe(3);
    expect(editDistance("OrderIdd", "OrderId")).toBe(1);
    expect(editDistance("checkoutCard", "checkoutCart")).toBe(1);
    expect(editDistance("kitten", "sitting")).toBe(3);
    expect(editDistance("flaw", "lawn")).toBe(2);
  });

  it("is symmetric", () => {
    for (const [a, b] of [
      ["TicketId", "TicketID"],
      ["search_docs", "serch_doc"],
      ["", "x"],
    ] as const)
      expect(editDistance(a, b)).toBe(editDistance(b, a));
  });
});
