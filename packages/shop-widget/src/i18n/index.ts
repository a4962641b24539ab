import { createInstance, type i18n as I18n } from "i18next";
import type { Locale } from "../config";
import type en from "./locales/en-GB";

export type Texts = typeof en;

const loaders: Record<Locale, () => Promise<{ default: Texts }>> = {
  "de-CH": () => import("./locales/de-CH"),
  "fr-CH": () => import("./locales/fr-CH"),
  "it-CH": () => import("./locales/it-CH"),
  "en-GB": () => import("./locales/en-GB"),
};

/** Loaded texts, shared by every widget on the page: each language's chunk is fetched once, on demand. */
const cache = new Map<Locale, Promise<Texts>>();

export function loadTexts(locale: Locale): Promise<Texts> {
  let promise = cache.get(locale);
  if (promise === undefined) {
    promise = loaders[locale]().then((m) => m.default);
    promise.catch(() => cache.delete(locale));
    cache.set(locale, promise);
  }
  return promise;
}

/** One i18next instance per widget, so widgets on one page can show different languages. */
export async function createI18n(locale: Locale): Promise<I18n> {
  const i18n = createInstance();
  i18n.use({
    type: "backend",
    init() {},
    read(language: string, _namespace: string, callback: (error: unknown, data: unknown) => void) {
      loadTexts(language as Locale).then(
        (texts) => callback(null, texts),
        (error: unknown) => callback(error, null),
      );
    },
  });
  await i18n.init({
    lng: locale,
    fallbackLng: false,
    supportedLngs: ["de-CH", "fr-CH", "it-CH", "en-GB"],
    load: "currentOnly",
    ns: ["shop"],
    defaultNS: "shop",
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18n;
}
