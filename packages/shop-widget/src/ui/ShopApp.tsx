import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { Locale, ShopConfig, Step } from "../config";
import { formatDateTime, formatMoney } from "../core/format";
import { detectReturn, stripReturnParams } from "../core/resume";
import type { Money } from "../core/types";
import { ShopContext, type ShopContextValue } from "./context";
import type { Controller } from "./controller";
import { useJourney } from "./journey";
import { Progress } from "./parts/Progress";
import { useCart } from "./queries";
import { EventList } from "./steps/EventList";

// The later steps load on demand: the first load is the catalogue only.
const EventStep = lazy(() => import("./steps/EventStep"));
const CartStep = lazy(() => import("./steps/CartStep"));
const DetailsStep = lazy(() => import("./steps/DetailsStep"));
const PaymentStep = lazy(() => import("./steps/PaymentStep"));
const ConfirmationStep = lazy(() => import("./steps/ConfirmationStep"));

export interface ShopAppProps {
  controller: Controller;
  config: ShopConfig;
  locale: Locale;
}

export function ShopApp({ controller, config, locale }: ShopAppProps) {
  const { t } = useTranslation();
  const timeZone = config.timeZone ?? "Europe/Zurich";
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
      added: (total) => t("cart.added", { total }),
      changed: (name, count, total) => t("cart.changed", { name, count, total }),
      removed: (name, total) => t("cart.removed", { name, total }),
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
      dateTime: (iso) => formatDateTime(iso, locale, timeZone),
      announce,
      journey,
    }),
    [controller, config, locale, timeZone, money, announce, journey],
  );

  // Back from a payment page: take over this instance's parameters once, confirm with the server.
  const { confirmReturn } = journey;
  useEffect(() => {
    const info = detectReturn(globalThis.location.href, controller.instanceId);
    if (info === undefined) return;
    stripReturnParams();
    let live = true;
    confirmReturn(info, () => live);
    return () => {
      live = false;
    };
  }, [controller, confirmReturn]);

  // A return detected by an earlier (StrictMode) mount already stripped the URL: the journey state holds it.
  const ready = useRef(false);
  useEffect(() => {
    if (ready.current) return;
    ready.current = true;
    controller.notify("ready", undefined);
  }, [controller]);

  const step = journey.step;
  const lastStep = useRef<Step>(step);
  useEffect(() => {
    if (lastStep.current === step) return;
    lastStep.current = step;
    controller.notify("stepchange", step);
  }, [controller, step]);

  const cart = useCart(journey.cartId).data;
  const cartSignature = cart === undefined ? "" : `${cart.id}|${cart.status}|${cart.total.amount}|${cart.items.map((i) => `${i.id}:${i.quantity}`).join(",")}`;
  const lastCart = useRef("");
  useEffect(() => {
    if (cart === undefined || lastCart.current === cartSignature) return;
    lastCart.current = cartSignature;
    controller.notify("cartchange", cart);
  }, [controller, cart, cartSignature]);

  return (
    <ShopContext.Provider value={value}>
      <section className="entrada-shop__app" aria-label={t("shop.label")}>
        <Progress step={step} />
        <Suspense
          fallback={
            <p className="entrada-shop__loading" aria-busy="true">
              {t("shop.loading")}
            </p>
          }
        >
          {step === "events" && <EventList />}
          {step === "event" && <EventStep />}
          {step === "cart" && <CartStep />}
          {step === "details" && <DetailsStep />}
          {step === "payment" && <PaymentStep />}
          {step === "confirmation" && <ConfirmationStep />}
        </Suspense>
        <p className="entrada-shop__visually-hidden" role="status" aria-live="polite" aria-atomic="true">
          {announcement}
        </p>
      </section>
    </ShopContext.Provider>
  );
}
