import { describe, expect, it } from "vitest";
import { LOCALES } from "../src/config";
import { createI18n, loadTexts } from "../src/i18n";

function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("widget texts", () => {
  it("has the same keys in every language, none empty", async () => {
    const en = keysOf(await loadTexts("en-GB")).sort();
    for (const locale of LOCALES) {
      const texts = await loadTexts(locale);
      expect(keysOf(texts).sort(), locale).toEqual(en);
      for (const key of en) {
        const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], texts);
        expect(String(value).trim().length, `${locale} ${key}`).toBeGreaterThan(0);
      }
    }
  });

  it("keeps interpolation placeholders identical across languages", async () => {
    const en = await loadTexts("en-GB");
    const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      const texts = await loadTexts(locale);
      for (const key of keysOf(en)) {
        const get = (t: unknown) => String(key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], t));
        expect(placeholders(get(texts)), `${locale} ${key}`).toEqual(placeholders(get(en)));
      }
    }
  });

  it("switches language on one instance without touching another", async () => {
    const a = await createI18n("de-CH");
    const b = await createI18n("de-CH");
    await a.changeLanguage("fr-CH");
    expect(a.t("cart.heading")).toBe("Votre panier");
    expect(b.t("cart.heading")).toBe("Ihr Warenkorb");
    expect(a.t("events.found", { count: 1 })).toBe("1 événement");
    expect(a.t("events.found", { count: 3 })).toBe("3 événements");
  });
});
