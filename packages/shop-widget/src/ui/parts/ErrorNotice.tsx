import { isEntradaError } from "@entrada/sdk/shop";
import { type ErrorText, errorText } from "../../core/error-text";
import { useTranslation } from "../../i18n/react";
import { Alert } from "./Alert";

export interface ErrorAction {
  label: string;
  onClick: () => void;
}

/**
 * An error in place: translated (never the server's English) — by `text`, or by what the SDK's `error` is — with
 * its log id for support and the ways forward. A new `error` (or `focusKey`) takes the focus again.
 */
export function ErrorNotice({
  error,
  text = errorText(error),
  focusKey = error,
  actions,
}: {
  error: unknown;
  text?: ErrorText;
  focusKey?: unknown;
  actions: ErrorAction[];
}) {
  const { t } = useTranslation();
  const logId = isEntradaError(error) ? error.logId : undefined;
  return (
    <Alert focusKey={focusKey}>
      <p>{t(`errors.${text}`, { ns: ["core", "checkout"] })}</p>
      {logId !== undefined && <p className="entrada-shop__muted">{t("errors.reference", { id: logId })}</p>}
      {actions.length > 0 && (
        <div className="entrada-shop__actions">
          {actions.map((action) => (
            <button
              key={action.label}
              type="button"
              className="entrada-shop__button"
              onClick={action.onClick}
            >
              {action.label}
            </button>
          ))}
        </div>
      )}
    </Alert>
  );
}
