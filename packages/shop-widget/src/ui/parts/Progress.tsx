import type { Step } from "../../config";
import { useTranslation } from "../../i18n/react";

const ORDER: Step[] = ["events", "event", "cart", "details", "payment", "confirmation"];

/** Where the buyer is in the journey: an ordered list with `aria-current="step"`. */
export function Progress({ step }: { step: Step }) {
  const { t } = useTranslation();
  const current = ORDER.indexOf(step);
  return (
    <nav
      className="entrada-shop__progress"
      aria-label={t("shop.progress", { current: current + 1, total: ORDER.length })}
    >
      <ol>
        {ORDER.map((s, index) => (
          <li
            key={s}
            className={index < current ? "entrada-shop__progress-done" : undefined}
            aria-current={s === step ? "step" : undefined}
          >
            {t(`steps.${s}`)}
          </li>
        ))}
      </ol>
    </nav>
  );
}
