import { describe, expect, it } from "vitest";
import { LOCALES } from "../src/config";
import { createI18n, loadTexts } from "../src/i18n";

function keysOf(value: unknown, prefix = ""): string[] {
  if (typeof value !== "object" || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe("widget texts", () => {
  it.each(["core", "checkout"] as const)("has the same %s keys in every language, none empty", async (ns) => {
    const en = keysOf(await loadTexts("en-GB", ns)).sort();
    for (const locale of LOCALES) {
      const texts = await loadTexts(locale, ns);
      expect(keysOf(texts).sort(), locale).toEqual(en);
      for (const key of en) {
        const value = key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], texts);
        expect(String(value).trim().length, `${locale} ${key}`).toBeGreaterThan(0);
      }
    }
  });

  it.each(["core", "checkout"] as const)("keeps %s placeholders identical across languages", async (ns) => {
    const en = await loadTexts("en-GB", ns);
    const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const locale of LOCALES) {
      const texts = await loadTexts(locale, ns);
      for (const key of keysOf(en)) {
        const get = (t: unknown) =>
          String(key.split(".").reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], t));
        expect(placeholders(get(texts)), `${locale} ${key}`).toEqual(placeholders(get(en)));
      }
    }
  });

  it("switches language on one instance without touching another", async () => {
    const a = await createI18n("de-CH");
    const b = await createI18n("de-CH");
    await Promise.all([a.loadNamespaces("checkout"), b.loadNamespaces("checkout")]);
    await a.changeLanguage("fr-CH");
    expect(a.t("cart.heading", { ns: "checkout" })).toBe("Votre panier");
    expect(b.t("cart.heading", { ns: "checkout" })).toBe("Ihr Warenkorb");
    // Core texts stay reachable from the checkout namespace (fallback).
    expect(a.getFixedT("fr-CH", "checkout")("errors.retry")).toBe("Réessayer");
    expect(a.t("events.found", { count: 1 })).toBe("1 événement");
    expect(a.t("events.found", { count: 3 })).toBe("3 événements");
    // French plural rules: 0 is singular too (Intl.PluralRules, not a hard-coded `count === 1`).
    expect(a.t("events.found", { count: 0 })).toBe("0 événement");
    // A missing key shows the key, an unknown placeholder stays visible.
    expect(a.t("no.such.key")).toBe("no.such.key");
  });

  it("keeps the old texts until the new language's texts have loaded", async () => {
    const a = await createI18n("de-CH");
    let changes = 0;
    a.on("languageChanged", () => {
      changes += 1;
    });
    const switching = a.changeLanguage("it-CH");
    expect(a.language).toBe("de-CH");
    await switching;
    expect(a.language).toBe("it-CH");
    expect(changes).toBe(1);
    expect(a.t("events.found", { count: 2 })).toMatch(/^2 /);
  });
});
