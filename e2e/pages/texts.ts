import checkoutEn from "../../packages/shop-widget/src/i18n/locales/checkout/en-GB.ts";
import checkoutFr from "../../packages/shop-widget/src/i18n/locales/checkout/fr-CH.ts";
import coreEn from "../../packages/shop-widget/src/i18n/locales/core/en-GB.ts";
import coreFr from "../../packages/shop-widget/src/i18n/locales/core/fr-CH.ts";

const resources = { "en-GB": [checkoutEn, coreEn], "fr-CH": [checkoutFr, coreFr] } as const;
export type TextLocale = keyof typeof resources;

/** A widget text from its i18n resources (so locators follow the texts, not copies of them). */
export function tx(
  key: string,
  values: Record<string, string | number> = {},
  locale: TextLocale = "en-GB",
): string {
  for (const root of resources[locale]) {
    const value = key
      .split(".")
      .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], root);
    if (typeof value === "string") {
      return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
    }
  }
  throw new Error(`no text ${key}`);
}

/** A text with its placeholders as a regular expression (`Pay {{amount}}` → /^Pay .+$/). */
export function txPattern(key: string, locale: TextLocale = "en-GB"): RegExp {
  const source = tx(key, {}, locale)
    .replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
    .replace(/\\\{\\\{\w+\\\}\\\}/g, ".+");
  return new RegExp(`^${source}$`);
}

/** Like `txPattern`, for names that go on after the text (a link's "(opens in a new tab)"). */
export function txStartPattern(key: string, locale: TextLocale = "en-GB"): RegExp {
  return new RegExp(txPattern(key, locale).source.replace(/\$$/, ""));
}
