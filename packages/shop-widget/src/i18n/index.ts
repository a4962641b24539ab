import type { Locale } from "../config";
import type checkout from "./locales/checkout/en-GB";
import type core from "./locales/core/en-GB";
import { type Namespace, Translator } from "./translator";

export type CoreTexts = typeof core;
export type CheckoutTexts = typeof checkout;
export type { Namespace, TFunction } from "./translator";

// Explicit imports (not a template) so every bundler makes one chunk per language and namespace.
const loaders: Record<Namespace, Record<Locale, () => Promise<{ default: object }>>> = {
  core: {
    "de-CH": () => import("./locales/core/de-CH"),
    "fr-CH": () => import("./locales/core/fr-CH"),
    "it-CH": () => import("./locales/core/it-CH"),
    "en-GB": () => import("./locales/core/en-GB"),
  },
  checkout: {
    "de-CH": () => import("./locales/checkout/de-CH"),
    "fr-CH": () => import("./locales/checkout/fr-CH"),
    "it-CH": () => import("./locales/checkout/it-CH"),
    "en-GB": () => import("./locales/checkout/en-GB"),
  },
};

/** Loaded texts, shared by every widget on the page: each chunk is fetched once, on demand. */
const cache = new Map<string, Promise<object>>();

export function loadTexts(locale: Locale, namespace: Namespace = "core"): Promise<object> {
  const key = `${namespace}/${locale}`;
  let promise = cache.get(key);
  if (promise === undefined) {
    promise = loaders[namespace][locale]().then((m) => m.default);
    promise.catch(() => cache.delete(key));
    cache.set(key, promise);
  }
  return promise;
}

/**
 * One translator per widget, so widgets on one page can show different languages. The `core` namespace
 * (shell, catalogue, errors) loads first; `checkout` loads with the later steps.
 */
export async function createI18n(locale: Locale): Promise<Translator> {
  const i18n = new Translator(locale, loadTexts);
  await i18n.loadNamespace("core");
  return i18n;
}
