import { DEFAULT_LOCALE, DEFAULT_TIME_ZONE, isLocale, type Locale, type ShopConfig } from "./config";
import { createDefaultShopApi } from "./core/default-shop-api";
import { prepareDateFormats } from "./core/format";
import { detectReturn } from "./core/resume";
import type { ShopApi } from "./core/shop-api";
import type { EventFilters } from "./core/types";
import { createI18n, type I18n } from "./i18n";
import { keys } from "./ui/query-cache";

/** The culture a config asks for (the default when it names none the widget has). */
export function localeOf(config: ShopConfig): Locale {
  return isLocale(config.locale) ? config.locale : DEFAULT_LOCALE;
}

/**
 * The catalogue's first reads (the venues and the first page, and with them the session token), by their query key's
 * hash: none when the buyer comes back from a payment page (no catalogue then). Their errors are left to the query
 * that takes them.
 */
export function catalogueReads(
  api: ShopApi,
  locale: Locale,
  filters: EventFilters,
  instanceId: string,
  signal?: AbortSignal,
): Map<string, Promise<unknown>> {
  const reads = new Map<string, Promise<unknown>>();
  if (detectReturn(globalThis.location.href, instanceId) !== undefined) return reads;
  for (const [key, read] of [
    [keys.venues(locale), api.listVenues({ locale, signal })],
    [keys.events(locale, filters, undefined), api.listEvents(filters, undefined, { locale, signal })],
  ] as const) {
    read.catch(() => {}); // handled by the query that takes it
    reads.set(JSON.stringify(key), read);
  }
  return reads;
}

/**
 * What the script-tag build starts at `mount`, while the shop's code is still on its way: the API transport, the
 * catalogue's first reads (which ask the host for the session token) and the culture's texts. The shop takes them
 * over when its code arrives (the same transport, so no second token; the reads as its queries' first fetches).
 */
export interface EarlyStart {
  /** The config they were started with. */
  config: ShopConfig;
  api: ShopApi | undefined;
  reads: Map<string, Promise<unknown>>;
  i18n: Promise<I18n>;
  /** Unmounted before the code arrived: the reads are cancelled, their outcomes and the texts' ignored. */
  abort(): void;
}

export function startEarly(config: ShopConfig, instanceId: string): EarlyStart {
  const aborter = new AbortController();
  const locale = localeOf(config);
  let api: ShopApi | undefined;
  try {
    api =
      config.api ??
      (config.baseUrl === undefined
        ? undefined
        : createDefaultShopApi({
            baseUrl: config.baseUrl,
            sessionToken: config.sessionToken,
            fetchSessionToken: config.fetchSessionToken,
            fetch: config.fetch,
          }));
  } catch {
    api = undefined; // the shop reports a config it cannot use when it renders
  }
  const filters = config.filters ?? {};
  const reads =
    api === undefined ? new Map() : catalogueReads(api, locale, filters, instanceId, aborter.signal);
  const i18n = createI18n(locale);
  i18n.catch(() => {}); // reported by the shop when it takes them
  const firstPage = reads.get(JSON.stringify(keys.events(locale, filters, undefined)));
  if (firstPage !== undefined) preloadFirstImage(firstPage, aborter.signal);
  // In a task of its own, after the requests above went out: the main thread is idle until the code arrives.
  setTimeout(() => {
    if (!aborter.signal.aborted) prepareDateFormats(locale, config.timeZone ?? DEFAULT_TIME_ZONE);
  }, 0);
  return { config, api, reads, i18n, abort: () => aborter.abort() };
}

/**
 * The first event's picture, usually the largest thing on screen once the list shows (the page's LCP element), asked
 * for as soon as the catalogue page arrives rather than once the list renders; the list's `<img>` then finds it in the
 * browser's image cache.
 */
function preloadFirstImage(read: Promise<unknown>, signal: AbortSignal): void {
  read.then(
    (page) => {
      const url = (page as { items?: { imageUrl?: string | null }[] }).items?.[0]?.imageUrl;
      if (!url || signal.aborted || typeof Image === "undefined") return;
      const image = new Image();
      image.setAttribute("fetchpriority", "high");
      image.src = url;
    },
    () => {},
  );
}
