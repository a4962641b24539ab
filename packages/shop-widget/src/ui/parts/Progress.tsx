import type { Step } from "../../config";
import { useTranslation } from "../../i18n/react";

export const STEP_ORDER: readonly Step[] = ["events", "event", "cart", "details", "payment", "confirmation"];

/**
 * Where the buyer is in the journey: a labelled ordered list with `aria-current="step"` (a list, not a
 * navigation landmark: its items are not links). Drawn as a segmented bar: every step a segment, the current
 * one wide enough for its name, the others' names kept for screen readers only (fits one line at 320 px).
 */
export function Progress({ step }: { step: Step }) {
  const { t } = useTranslation();
  const current = STEP_ORDER.indexOf(step);
  return (
    <ol
      className="entrada-shop__progress"
      aria-label={t("shop.progress", { current: current + 1, total: STEP_ORDER.length })}
    >
      {STEP_ORDER.map((s, index) => (
        <li
          key={s}
          className={index < current ? "entrada-shop__progress-done" : undefined}
          aria-current={s === step ? "step" : undefined}
        >
          <span>{t(`steps.${s}`)}</span>
        </li>
      ))}
    </ol>
  );
}
