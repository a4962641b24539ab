import { type ReactNode, useState } from "react";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";

/**
 * Whether `href` is a signed asset link that is still valid (`?expires=<unix seconds>&signature=…`, the
 * contract's `signedUrl` scheme): it opens without the session token, so a plain link does.
 */
export function isSignedLink(href: string, now = Date.now()): boolean {
  try {
    const query = new URL(href).searchParams;
    return query.has("signature") && Number(query.get("expires")) * 1000 > now;
  } catch {
    return false;
  }
}

/**
 * A link to a PDF (ticket, receipt). A signed link (the API's `ticketUrl` / `receiptUrl`) is a plain anchor
 * that opens in a new tab: keyboard, middle-click, "open in new tab" and "copy link" all work, no script
 * involved. Otherwise — an unsigned link, or a signed one that expired while the page stayed open — a click
 * downloads the file through the API with the session token and saves it; a download that fails is shown on the
 * step, translated, with "Try again".
 */
export function AssetLink({
  href,
  fileName,
  children,
}: {
  href: string;
  fileName: string;
  children: ReactNode;
}) {
  const { api, locale, journey } = useShop();
  const { t } = useTranslation("checkout");
  const [busy, setBusy] = useState(false);
  const signed = isSignedLink(href);
  const download = () => {
    setBusy(true);
    api
      .getAsset(href, { locale })
      .then((blob) => {
        journey.dismissError();
        const url = URL.createObjectURL(blob);
        const link = document.createElement("a");
        link.href = url;
        link.download = fileName;
        link.rel = "noopener";
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      })
      .catch((error: unknown) => journey.fail(error, "confirmation", download))
      .finally(() => setBusy(false));
  };
  return (
    <a
      className="entrada-shop__link"
      href={href}
      {...(signed ? { target: "_blank", rel: "noopener" } : {})}
      aria-busy={busy || undefined}
      onClick={(event) => {
        // A signed link still valid at the click: the browser follows it.
        if (isSignedLink(href)) return;
        event.preventDefault();
        if (!busy) download();
      }}
    >
      {children}
      {signed && <span className="entrada-shop__visually-hidden"> {t("confirmation.newTab")}</span>}
    </a>
  );
}
