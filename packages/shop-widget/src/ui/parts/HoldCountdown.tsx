import { useEffect, useState } from "react";
import { formatCountdown } from "../../core/format";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";

/**
 * The time left on the seat hold. The visible clock is not a live region (it would talk every second);
 * the buyer hears one warning two minutes before the end, and the expiry.
 */
export function HoldCountdown({ expiresAt }: { expiresAt: string }) {
  const { t } = useTranslation("checkout");
  const { announce, journey } = useShop();
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
      <div className="entrada-shop__error" role="alert">
        <p>{t("errors.hold-expired")}</p>
        <button type="button" className="entrada-shop__button" onClick={() => void journey.rebook()}>
          {t("errors.rebook")}
        </button>
      </div>
    );
  }
  return (
    <p className={warn ? "entrada-shop__hold entrada-shop__hold--soon" : "entrada-shop__hold"}>
      {t("cart.hold", { time: formatCountdown(left) })}
    </p>
  );
}
