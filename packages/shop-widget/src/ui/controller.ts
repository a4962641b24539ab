import { isEntradaError, isErrorKind } from "@entrada/sdk/shop";
import { QueryCache, QueryClient } from "@tanstack/react-query";
import { DEFAULT_LOCALE, isLocale, type Locale, type ShopConfig, type ShopEventMap } from "../config";
import type { Tracker } from "../core/analytics";
import { createDefaultShopApi } from "../core/default-shop-api";
import { Emitter, reportListenerError } from "../core/emitter";
import type { ShopApi } from "../core/shop-api";
import type { I18n } from "../i18n";
import { createI18n } from "../i18n";

/** The checkout's mutation key: while one runs, the buyer is paying. */
export const CHECKOUT_KEY = ["entrada", "payment", "checkout"] as const;

/**
 * Everything one widget instance owns outside React: its API transport (the SDK's, with its session token), its query cache,
 * its i18next instance, its event emitter and analytics. One per `mount()` or `<EntradaShop>`.
 */
/** What a controller takes over from the mount shell instead of making it itself (see `render.ts`). */
export interface ControllerStart {
  emitter?: Emitter<ShopEventMap> | undefined;
  /** The transport made for `config` before the controller existed. */
  api?: ShopApi | undefined;
  /** The texts of `config`'s culture, loading since before the controller existed. */
  i18n?: Promise<I18n> | undefined;
}

export class Controller {
  readonly emitter: Emitter<ShopEventMap>;
  readonly queryClient: QueryClient;
  readonly tracker: Tracker;
  readonly instanceId: string;
  #config: ShopConfig;
  #api: ShopApi | undefined;
  #i18n: Promise<I18n> | undefined;
  #disposed = false;

  constructor(config: ShopConfig, instanceId: string, start: ControllerStart = {}) {
    this.#config = config;
    this.instanceId = instanceId;
    this.emitter = start.emitter ?? new Emitter<ShopEventMap>();
    this.#api = start.api;
    this.#i18n = start.i18n;
    this.queryClient = new QueryClient({
      // Failed reads are shown in place by their step; the host hears about them too.
      // (Queries whose errors the journey reports itself say so in their `meta`.)
      queryCache: new QueryCache({
        onError: (error, query) => {
          if (query.meta?.shownInPlace !== true) this.reportError(error);
        },
      }),
      defaultOptions: {
        queries: {
          staleTime: 30_000,
          refetchOnWindowFocus: false,
          // The SDK already retried the call; a read that still got no answer is tried twice more.
          retry: (failures, error) =>
            (isErrorKind(error, "network") || isErrorKind(error, "timeout")) && failures < 2,
        },
        mutations: { retry: false },
      },
    });
    // Analytics is off by default: its code loads only once a sink (callback, data layer, listener) exists.
    const purchases = new Set<string>();
    let loaded: Promise<Tracker> | undefined;
    this.tracker = {
      track: (name, params) => {
        const analytics = this.#config.analytics;
        const listening = this.emitter.count("analytics") > 0;
        if (analytics?.onEvent === undefined && !analytics?.dataLayer && !listening) return;
        loaded ??= import("../core/analytics").then(({ createTracker, resolveDataLayer }) =>
          createTracker(() => {
            const current = this.#config.analytics;
            return {
              onEvent: (event) => {
                current?.onEvent?.(event);
                this.emitter.emit("analytics", event);
              },
              dataLayer: resolveDataLayer(current?.dataLayer),
            };
          }, purchases),
        );
        loaded
          .then((tracker) => tracker.track(name, params))
          .catch((error: unknown) => {
            console.error("[entrada-shop] analytics", error);
          });
      },
    };
  }

  get config(): ShopConfig {
    return this.#config;
  }

  get locale(): Locale {
    return isLocale(this.#config.locale) ? this.#config.locale : DEFAULT_LOCALE;
  }

  setConfig(config: ShopConfig): void {
    const previous = this.#config;
    this.#config = config;
    // A new token or token function gets a new SDK client (its session-token auth starts from them).
    if (
      config.sessionToken !== previous.sessionToken ||
      config.fetchSessionToken !== previous.fetchSessionToken ||
      config.api !== previous.api ||
      config.baseUrl !== previous.baseUrl ||
      config.fetch !== previous.fetch
    ) {
      this.#api = undefined;
    }
  }

  get api(): ShopApi {
    if (this.#api === undefined) {
      const config = this.#config;
      if (config.api !== undefined) {
        this.#api = config.api;
      } else {
        if (config.baseUrl === undefined) throw new Error("EntradaShop: set `baseUrl` (or pass `api`)");
        this.#api = createDefaultShopApi({
          baseUrl: config.baseUrl,
          sessionToken: config.sessionToken,
          fetchSessionToken: config.fetchSessionToken,
          fetch: config.fetch,
        });
      }
    }
    return this.#api;
  }

  i18n(): Promise<I18n> {
    this.#i18n ??= createI18n(this.locale);
    return this.#i18n;
  }

  /** Emit to `on()` listeners and call the matching config callback. */
  notify<K extends keyof ShopEventMap>(event: K, payload: ShopEventMap[K]): void {
    const c = this.#config;
    const callback = {
      ready: c.onReady,
      stepchange: c.onStepChange,
      cartchange: c.onCartChange,
      checkoutcomplete: c.onCheckoutComplete,
      error: c.onError,
      localechange: c.onLocaleChange,
      analytics: undefined,
    }[event] as ((payload: ShopEventMap[K]) => void) | undefined;
    try {
      callback?.(payload);
    } catch (error) {
      reportListenerError(error);
    }
    this.emitter.emit(event, payload);
  }

  /**
   * Tells the host what failed: the SDK's `EntradaError` through `error` / `onError`. Anything else (a custom
   * `ShopApi` breaking its contract) goes to the console.
   */
  reportError(error: unknown): void {
    if (isEntradaError(error)) this.notify("error", error);
    else reportListenerError(error);
  }

  /** True once `dispose()` ran: whatever still settles then must not act on the page (open a payment page). */
  get disposed(): boolean {
    return this.#disposed;
  }

  /** A checkout is on its way to the API. */
  get paying(): boolean {
    return this.queryClient.isMutating({ mutationKey: CHECKOUT_KEY }) > 0;
  }

  /**
   * Drops the instance's server state and listeners. Components may let go of their queries and mutations after
   * this (Preact, in the script-tag build, runs a removed tree's effect cleanups after the next paint), and a fetch
   * cancelled here still settles later: either would start the entry's five-minute garbage-collection timer, which
   * would keep the whole instance (cache, texts, API client) alive that long. An infinite `gcTime` starts no timer;
   * out of the cache, the entries go with their last reference.
   */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    for (const entry of [
      ...this.queryClient.getQueryCache().getAll(),
      ...this.queryClient.getMutationCache().getAll(),
    ]) {
      entry.gcTime = Number.POSITIVE_INFINITY;
    }
    this.queryClient.cancelQueries().catch(() => {});
    this.queryClient.clear();
    this.emitter.clear();
  }
}
