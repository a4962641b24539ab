import { QueryClientProvider } from "@tanstack/react-query";
import { type CSSProperties, useEffect, useLayoutEffect, useRef, useState } from "react";
import type { Appearance, Locale, ShopConfig } from "../config";
import { reportListenerError } from "../core/emitter";
import type { ShopApi } from "../core/shop-api";
import { acquireStyles, checkStylesApplied } from "../core/styles";
import type { I18n } from "../i18n";
import { I18nProvider } from "../i18n/react";
import css from "../styles/shop-widget.css?inline";
import type { Controller } from "./controller";
import { startCatalogue } from "./queries";
import { ShopApp } from "./ShopApp";

/** The catalogue in parallel with the texts (not when the buyer comes back from a payment page: no catalogue then). */
function startReads(controller: Controller): void {
  let api: ShopApi;
  try {
    api = controller.api;
  } catch {
    return; // a config without `baseUrl` or `api`: the shop says so when it renders
  }
  startCatalogue(
    controller.queryClient,
    api,
    controller.locale,
    controller.config.filters ?? {},
    controller.instanceId,
  );
}

/**
 * Design tokens as CSS custom properties on the root. React sets them through the CSSOM
 * (`style.setProperty`), which a nonce-based CSP allows; no `style` attribute is ever parsed from a string.
 */
export function appearanceStyle(appearance: Appearance | undefined): CSSProperties | undefined {
  if (appearance === undefined) return undefined;
  const style: Record<string, string> = {};
  for (const [name, value] of Object.entries(appearance)) {
    // colorPrimary → --entrada-color-primary
    if (typeof value === "string" && value !== "") {
      style[`--entrada-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`] = value;
    }
  }
  return style as CSSProperties;
}

export interface ShopRootProps {
  controller: Controller;
  config: ShopConfig;
}

/** The widget's root element, stylesheet, texts and query cache; the journey renders inside. */
export function ShopRoot({ controller, config }: ShopRootProps) {
  controller.setConfig(config);
  const [i18n, setI18n] = useState<I18n | null>(null);
  const [locale, setLocale] = useState<Locale>(controller.locale);
  const target = controller.locale;

  useEffect(() => {
    let live = true;
    startReads(controller);
    controller.i18n().then((instance) => {
      if (live) setI18n(instance);
    }, reportListenerError);
    return () => {
      live = false;
    };
  }, [controller]);

  useEffect(() => {
    if (i18n === null || (i18n.language === target && locale === target)) return;
    let live = true;
    // Texts first (cached after the first load), then the culture: one re-render in place.
    i18n.changeLanguage(target).then(() => {
      if (!live) return;
      setLocale(target);
      controller.notify("localechange", target);
    });
    return () => {
      live = false;
    };
  }, [i18n, target, locale, controller]);

  const inject = config.injectStyles !== false;
  const nonce = config.nonce;
  const rootRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const release = inject ? acquireStyles(document, "base", css, nonce) : undefined;
    const stopChecking = rootRef.current ? checkStylesApplied(rootRef.current, inject) : undefined;
    return () => {
      stopChecking?.();
      release?.();
    };
  }, [inject, nonce]);

  return (
    <div
      ref={rootRef}
      className="entrada-shop"
      data-theme={config.theme ?? "light"}
      lang={locale}
      style={appearanceStyle(config.appearance)}
    >
      {i18n === null ? (
        <p className="entrada-shop__loading entrada-shop__loading--shop" aria-busy="true">
          …
        </p>
      ) : (
        <I18nProvider i18n={i18n}>
          <QueryClientProvider client={controller.queryClient}>
            <ShopApp controller={controller} config={config} locale={locale} />
          </QueryClientProvider>
        </I18nProvider>
      )}
    </div>
  );
}
