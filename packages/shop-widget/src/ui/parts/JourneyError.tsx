import type { Step } from "../../config";
import { useTranslation } from "../../i18n/react";
import { useRebook } from "../cart-mutations";
import { useShop } from "../context";
import { type ErrorAction, ErrorNotice } from "./ErrorNotice";

/** The journey's current error, when it belongs to `step`, with the actions that fit what the buyer is told. */
export function JourneyError({ step }: { step: Step }) {
  const { t } = useTranslation("checkout");
  const { journey } = useShop();
  const again = useRebook();
  const current = journey.error;
  if (current === undefined || current.step !== step) return null;
  const { error, text, retry } = current;
  const actions: ErrorAction[] = [];
  switch (text) {
    case "network":
    case "timeout":
    case "rate-limited":
    case "generic":
    case "cart-locked":
      if (retry) actions.push({ label: t("errors.retry"), onClick: retry });
      break;
    case "payment-pending":
      if (retry) actions.push({ label: t("errors.check"), onClick: retry });
      break;
    case "hold-expired":
      actions.push({ label: t("errors.rebook"), onClick: () => again.rebook() });
      break;
    case "sold-out":
    case "insufficient-capacity":
    case "not-found":
      actions.push({ label: t("errors.events"), onClick: () => journey.goTo("events") });
      break;
    default:
      break;
  }
  return <ErrorNotice error={error} text={text} focusKey={current} actions={actions} />;
}
