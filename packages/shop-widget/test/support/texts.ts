import checkoutEn from "../../src/i18n/locales/checkout/en-GB";
import coreEn from "../../src/i18n/locales/core/en-GB";

/**
 * The widget's own English texts, so tests find controls by what users read (and break when a text key
 * is lost). `tx("events.chooseFor", { name })` interpolates like i18next.
 */
export function tx(key: string, values: Record<string, string | number> = {}): string {
  const lookup = (root: object) =>
    key.split(".").reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], root);
  const value = lookup(checkoutEn) ?? lookup(coreEn);
  if (typeof value !== "string") throw new Error(`no text ${key}`);
  return value.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}
