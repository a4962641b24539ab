// The shop's built-in catalogue is a JSON seed file checked against a schema (issue 18): the committed seed is
// sound, and a broken copy is refused with the field named.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_CULTURE } from "../../src/core/culture.ts";
import { checkCatalogueSeed } from "../../src/node/seed-check.ts";
import { defaultCatalogue } from "../../src/sections/shop/catalogue.ts";

/** The seed as read from disk: checked by the schema, not trusted by its type. */
const seed: { kinds: Record<string, unknown>[]; venues: Record<string, unknown>[] } = JSON.parse(
  readFileSync(new URL("../../src/sections/shop/seed/catalogue.json", import.meta.url), "utf8"),
);
const keys = new Set(
  Object.keys(
    JSON.parse(readFileSync(new URL(`../../src/messages/${DEFAULT_CULTURE}.json`, import.meta.url), "utf8")),
  ),
);

describe("the catalogue seed file", () => {
  it("matches its schema and names only texts the message files have", () => {
    expect(checkCatalogueSeed(seed, keys)).toEqual([]);
  });

  it("expands to every kind at every venue, the first event keeping the contract's example ids", () => {
    const catalogue = defaultCatalogue(Date.parse("2026-11-26T08:00:00Z"));
    expect(catalogue.events).toHaveLength(24);
    expect(catalogue.events[0]).toMatchObject({
      id: "evt_01JD3Y5V7W9X1Y3Z5A7B9C1D3E",
      slots: [expect.objectContaining({ id: "slt_01JD3Y6F8G0H2J4K6M8N0P2Q4R" })],
      pricingAssortments: [
        {
          id: "asr_01JD3Y6Z1A3B5C7D9E1F3G5H7J",
          articles: [
            expect.objectContaining({
              id: "art_01JD3Y7A1B2C3D4E5F6G7H8J9K",
              price: { CHF: 4500, EUR: 4750 },
            }),
            expect.objectContaining({
              id: "art_01JD3Y7B2C3D4E5F6G7H8J9K0M",
              price: { CHF: 2700, EUR: 2850 },
            }),
          ],
        },
      ],
    });
  });

  it("a broken seed gives clear errors: the field and what is wrong with it", () => {
    const broken: { kinds: Record<string, unknown>[]; venues: Record<string, unknown>[] } =
      structuredClone(seed);
    Object.assign(broken.kinds[2] ?? {}, { capacity: "many" });
    Object.assign(broken.venues[0] ?? {}, { city: { $msg: "shop.catalogue.atlantis" } });
    delete broken.kinds[0]?.base;
    const problems = checkCatalogueSeed(broken, keys);
    expect(problems).toContain("/kinds/2/capacity must be integer");
    expect(problems).toContain("/kinds/0 must have required property 'base'");
    expect(problems).toContain('/venues/0/city/$msg names no message: "shop.catalogue.atlantis"');
  });
});
