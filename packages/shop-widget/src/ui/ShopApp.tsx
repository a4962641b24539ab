import { isProblem, NetworkError } from "@entrada/sdk/shop";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import { DEFAULT_TIME_ZONE, type Locale, type ShopConfig, type Step } from "../config";
import { formatDate, formatMoney } from "../core/format";
import { detectReturn, stripReturnParams } from "../core/resume";
import { acquireStyles } from "../core/styles";
import type { Money } from "../core/types";
import { useTranslation } from "../i18n/react";
import { ShopContext, type ShopContextValue, useShop } from "./context";
import type { Controller } from "./controller";
import { useJourney } from "./journey";
import { ErrorNotice } from "./parts/ErrorNotice";
import { Progress, STEP_ORDER } from "./parts/Progress";
import { useCart } from "./queries";
import { useStepComponent } from "./step-component";
import { EventList } from "./steps/EventList";

let cachedLaterCss: string | undefined;
function loadLaterCss(): Promise<string> {
  return import("../styles/steps.css?inline").then((m) => {
    cachedLaterCss = m.default;
    return m.default;
  });
}

export interface ShopAppProps {
  controller: Controller;
  config: ShopConfig;
  locale: Locale;
}

export function ShopApp({ controller, config, locale }: ShopAppProps) {
  const { t, i18n } = useTranslation();
  const timeZone = config.timeZone ?? DEFAULT_TIME_ZONE;
  const [announcement, setAnnouncement] = useState("");
  const announce = useCallback((text: string) => {
    // Clearing first makes screen readers repeat an identical message.
    setAnnouncement("");
    queueMicrotask(() => setAnnouncement(text));
  }, []);
  const money = useCallback((m: Money) => formatMoney(m, locale), [locale]);

  const journey = useJourney({
    controller,
    locale,
    announce,
    money,
    texts: {
      added: (total) => t("cart.added", { ns: "checkout", total }),
      changed: (name, count, total) => t("cart.changed", { ns: "checkout", name, count, total }),
      removed: (name, total) => t("cart.removed", { ns: "checkout", name, total }),
    },
  });

  const value = useMemo<ShopContextValue>(
    () => ({
      controller,
      api: controller.api,
      config,
      locale,
      timeZone,
      money,
      dateTime: (iso, shape) => formatDate(iso, locale, timeZone, shape),
      announce,
      journey,
    }),
    [controller, config, locale, timeZone, money, announce, journey],
  );

  // Back from a payment page: take over this instance's parameters once, confirm with the server.
  // The payment step then confirms it (src/ui/payment-mutations.ts).
  const { returnFromPayment } = journey;
  useEffect(() => {
    const info = detectReturn(globalThis.location.href, controller.instanceId);
    if (info === undefined) return;
    stripReturnParams();
    returnFromPayment(info);
  }, [controller, returnFromPayment]);

  // A return detected by an earlier (StrictMode) mount already stripped the URL: the journey state holds it.
  const ready = useRef(false);
  useEffect(() => {
    if (ready.current) return;
    ready.current = true;
    controller.notify("ready", undefined);
  }, [controller]);

  const step = journey.step;
  // A step the buyer moved to is announced (polite, its own region so it never replaces a cart message); the
  // focus moves to its heading too (StepHeading). Never on the first render.
  const [stepNow, setStepNow] = useState("");
  const { navigation } = journey;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a navigation is the trigger; the step is read then.
  useEffect(() => {
    if (navigation === 0) return;
    const index = STEP_ORDER.indexOf(step);
    const progress = t("shop.progress", { current: index + 1, total: STEP_ORDER.length });
    setStepNow(t("shop.stepNow", { progress, name: t(`steps.${step}`) }));
  }, [navigation]);
  const lastStep = useRef<Step>(step);
  useEffect(() => {
    if (lastStep.current === step) return;
    lastStep.current = step;
    controller.notify("stepchange", step);
  }, [controller, step]);

  // The later steps' texts load with them (once per widget; a language switch then reloads both namespaces).
  // Their styles too: the later-steps sheet is injected (ref-counted, with the nonce) when first needed.
  const needsCheckoutTexts = step !== "events";
  // A part of the later steps (their code, styles or texts) that did not load is shown in place with "Try again",
  // which loads what is missing again, instead of an endless "Loading…"; the host hears of it through `error`.
  const [loadError, setLoadError] = useState<NetworkError>();
  const [loadAttempt, setLoadAttempt] = useState(0);
  const failLoad = useCallback(
    (cause: unknown) => {
      const error = new NetworkError("EntradaShop: a part of the shop did not load", { cause });
      controller.notify("error", error);
      setLoadError(error);
    },
    [controller],
  );
  const retryLoad = useCallback(() => {
    setLoadError(undefined);
    setLoadAttempt((n) => n + 1);
  }, []);
  // The host's buyer details (`buyer`, `lockBuyer`; live through update()): validated like typed input (with the
  // later steps' validation, loaded only when a host prefills), wrong values reported to the host and left out.
  const { prefill } = journey;
  const buyerConfig = JSON.stringify([config.buyer ?? null, config.lockBuyer ?? null]);
  const prefilled = useRef("[null,null]");
  useEffect(() => {
    if (prefilled.current === buyerConfig) return;
    prefilled.current = buyerConfig;
    const { buyer, lockBuyer } = controller.config;
    import("../core/buyer-prefill").then(({ resolvePrefill }) => {
      const { values, locked, problems } = resolvePrefill(buyer, lockBuyer);
      for (const problem of problems) controller.reportError(problem);
      prefill(values, locked);
    }, failLoad);
  }, [controller, buyerConfig, prefill, failLoad]);

  const [laterCss, setLaterCss] = useState<string | undefined>(cachedLaterCss);
  const checkoutTexts = i18n.hasLoadedNamespace("checkout") && laterCss !== undefined;
  useEffect(() => {
    if (!needsCheckoutTexts) return;
    let live = true;
    if (!i18n.hasLoadedNamespace("checkout")) {
      // i18next's loadNamespaces resolves even when the texts failed to load (and keeps the failure: a retry
      // reloads them): report that as an error.
      const load =
        loadAttempt === 0 ? i18n.loadNamespaces("checkout") : i18n.reloadResources(undefined, "checkout");
      load.then(() => {
        if (live && !i18n.hasLoadedNamespace("checkout"))
          failLoad(new Error("EntradaShop: the checkout texts did not load"));
      });
    }
    if (laterCss === undefined)
      loadLaterCss().then(
        (css) => live && setLaterCss(css),
        (error: unknown) => live && failLoad(error),
      );
    return () => {
      live = false;
    };
  }, [needsCheckoutTexts, i18n, laterCss, failLoad, loadAttempt]);
  const LaterStep = useStepComponent(step, failLoad, loadAttempt);
  const inject = config.injectStyles !== false;
  const nonce = config.nonce;
  useLayoutEffect(
    () => (inject && laterCss !== undefined ? acquireStyles(document, "steps", laterCss, nonce) : undefined),
    [inject, nonce, laterCss],
  );
  const loading = (
    <p className="entrada-shop__loading" aria-busy="true">
      {t("shop.loading")}
    </p>
  );

  return (
    <ShopContext.Provider value={value}>
      <section className="entrada-shop__app" aria-label={t("shop.label")}>
        <Progress step={step} />
        <CartWatcher />
        {step === "events" && <EventList />}
        {needsCheckoutTexts &&
          (checkoutTexts && LaterStep !== undefined ? (
            <LaterStep />
          ) : loadError ? (
            <ErrorNotice error={loadError} actions={[{ label: t("errors.retry"), onClick: retryLoad }]} />
          ) : (
            loading
          ))}
        <p className="entrada-shop__visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
        <p
          className="entrada-shop__visually-hidden"
          aria-live="polite"
          aria-atomic="true"
          data-entrada-step-now=""
        >
          {stepNow}
        </p>
      </section>
    </ShopContext.Provider>
  );
}

/** Tells the host about every change of the cart (inside the provider: it reads the cart query). */
function CartWatcher() {
  const { controller, journey } = useShop();
  const query = useCart(journey.cartId);
  const cart = query.data;
  const signature =
    cart === undefined
      ? ""
      : `${cart.id}|${cart.status}|${cart.total.amount}|${cart.items.map((i) => `${i.id}:${i.quantity}`).join(",")}`;
  const last = useRef("");
  useEffect(() => {
    if (cart === undefined || last.current === signature) return;
    last.current = signature;
    controller.notify("cartchange", cart);
  }, [controller, cart, signature]);
  // A remembered cart that is no longer there (paid, expired, another session) is dropped quietly.
  const gone =
    cart?.status === "completed" || cart?.status === "expired" || isProblem(query.error, "not-found");
  const { forgetCart, step } = journey;
  useEffect(() => {
    if (gone && step === "events") forgetCart();
  }, [gone, step, forgetCart]);
  return null;
}
