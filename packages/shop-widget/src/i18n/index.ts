import type { i18n as I18n } from "i18next";
import { LOCALES, type Locale, type Namespace, TEXT_LOADERS } from "../generated/cultures";
import type checkout from "./locales/checkout/en-GB";
import type core from "./locales/core/en-GB";

export type CoreTexts = typeof core;
export type CheckoutTexts = typeof checkout;
export type { i18n as I18n, TFunction } from "i18next";
export type { Namespace } from "../generated/cultures";

/** Loaded texts, shared by every widget on the page: each chunk is fetched once, on demand. */
const cache = new Map<string, Promise<object>>();

export function loadTexts(locale: Locale, namespace: Namespace = "core"): Promise<object> {
  const key = `${namespace}/${locale}`;
  let promise = cache.get(key);
  if (promise === undefined) {
    promise = TEXT_LOADERS[namespace][locale]().then((m) => m.default);
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/**
 * One i18next instance per widget, so widgets on one page can show different languages. The `core`
 * namespace (shell, catalogue, errors) loads first; `checkout` loads with the later steps.
 *
 * i18next itself is a dynamic import: a lazy chunk fetched in parallel with the first language's texts
 * (both are needed before the first text renders), so it is not part of the widget's static first load.
 */
export async function createI18n(locale: Locale): Promise<I18n> {
  const [createInstance] = await Promise.all([
    import("i18next").then((m) => m.createInstance),
    loadTexts(locale, "core"),
  ]);
  const i18n = createInstance();
  i18n.use({
    type: "backend",
    init() {},
    read(language: string, namespace: string, callback: (error: unknown, data: unknown) => void) {
      loadTexts(language as Locale, namespace as Namespace).then(
        (texts) => callback(null, texts),
        (error: unknown) => callback(error, null),
      );
    },
  });
  await i18n.init({
    lng: locale,
    fallbackLng: false,
    supportedLngs: [...LOCALES],
    load: "currentOnly",
    ns: ["core"],
    defaultNS: "core",
    fallbackNS: "core",
    interpolation: { escapeValue: false },
  });
  return i18n;
}
