import type { ShopError } from "../../core/problem";
import { useTranslation } from "../../i18n/react";
import { Alert } from "./Alert";

export interface ErrorAction {
  label: string;
  onClick: () => void;
}

/** An error in place: translated by kind (never the server's English), with the ways forward. */
export function ErrorNotice({ error, actions }: { error: ShopError; actions: ErrorAction[] }) {
  const { t } = useTranslation();
  return (
    <Alert focusKey={error}>
      <p>{t(`errors.${error.kind}`, { ns: ["core", "checkout"] })}</p>
      {error.logId !== undefined && (
        <p className="entrada-shop__muted">{t("errors.reference", { id: error.logId })}</p>
      )}
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
