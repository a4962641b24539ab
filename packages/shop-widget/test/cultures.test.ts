// @vitest-environment node
// The widget's culture list is generated from the contract's culture data (issue 18): the committed module is what
// the data gives, in the contract's order and with its default; a culture without widget texts is named.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { missingTexts, readCultures, renderCulturesModule } from "../scripts/generate-cultures";
import { DEFAULT_LOCALE, isLocale, LOCALES } from "../src/config";
import { loadTexts } from "../src/i18n";

const generated = fileURLToPath(new URL("../src/generated/cultures.ts", import.meta.url));
const locales = fileURLToPath(new URL("../src/i18n/locales/", import.meta.url));

describe("the widget's culture list", () => {
  const cultures = readCultures();

  it("is generated from the contract's culture data and up to date", () => {
    expect(readFileSync(generated, "utf8")).toBe(renderCulturesModule(cultures));
  });

  it("holds the contract's cultures in their order, with the contract's default", () => {
    const byOrder = [...cultures].sort((a, b) => a.order - b.order).map((c) => c.tag);
    expect([...LOCALES]).toEqual(byOrder);
    expect(DEFAULT_LOCALE).toBe(cultures.find((c) => c.default)?.tag);
    for (const tag of byOrder) expect(isLocale(tag)).toBe(true);
  });

  it("loads each culture's texts from its own chunk", async () => {
    for (const locale of LOCALES) {
      const core = (await loadTexts(locale, "core")) as Record<string, unknown>;
      expect(Object.keys(core).length, locale).toBeGreaterThan(0);
    }
  });

  it("names the text files a new culture of the contract still needs", () => {
    const has = (path: string) => existsSync(`${locales}/${path}`);
    expect(missingTexts([...LOCALES], has)).toEqual([]);
    expect(missingTexts(["rm-CH", ...LOCALES], has)).toEqual(["core/rm-CH.ts", "checkout/rm-CH.ts"]);
    const second = { tag: "xx-XX", order: 99 } as (typeof cultures)[number];
    expect(renderCulturesModule([...cultures, second])).toContain(
      '"xx-XX": () => import("../i18n/locales/core/xx-XX")',
    );
    expect(() => renderCulturesModule(cultures.map((c) => ({ ...c, default: false })))).toThrow(
      "exactly one default",
    );
  });
});
