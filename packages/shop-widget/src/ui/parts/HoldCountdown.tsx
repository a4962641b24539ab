import { useEffect, useState } from "react";
import { formatCountdown } from "../../core/checkout-format";
import { useTranslation } from "../../i18n/react";
import { useRebook } from "../cart-mutations";
import { useShop } from "../context";
import { Alert } from "./Alert";

/**
 * The time left on the seat hold. The visible clock is not a live region (it would talk every second);
 * the buyer hears one warning two minutes before the end, and the expiry.
 */
export function HoldCountdown({ expiresAt }: { expiresAt: string }) {
  const { t } = useTranslation("checkout");
  const { announce } = useShop();
  const again = useRebook();
  const end = Date.parse(expiresAt);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.round((end - now) / 1000));

  useEffect(() => {
    if (end - Date.now() <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [end]);

  const warn = left > 0 && left <= 120;
  useEffect(() => {
    if (warn) announce(t("cart.holdSoon", { count: 2 }));
  }, [warn, announce, t]);

  if (left === 0) {
    return (
      <Alert>
        <p>{t("errors.hold-expired")}</p>
        <button
          type="button"
          className="entrada-shop__button"
          aria-disabled={again.isPending}
          onClick={() => {
            if (!again.isPending) again.rebook();
          }}
        >
          {t("errors.rebook")}
        </button>
      </Alert>
    );
  }
  return (
    <p className={warn ? "entrada-shop__hold entrada-shop__hold--soon" : "entrada-shop__hold"}>
      <svg className="entrada-shop__icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
        <circle cx="8" cy="8" r="6.25" />
        <path d="M8 4.5V8l2.5 1.5" />
      </svg>
      {t("cart.hold", { time: formatCountdown(left) })}
    </p>
  );
}
