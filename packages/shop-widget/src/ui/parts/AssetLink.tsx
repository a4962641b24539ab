import { type ReactNode, useState } from "react";
import { toShopError } from "../../core/problem";
import { useShop } from "../context";

/**
 * A link to a PDF behind the session token (tickets, receipt). A plain navigation cannot carry the bearer
 * token, so a click downloads the file through the API and saves it; the `href` stays for the semantics.
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
  const { api, locale, controller } = useShop();
  const [busy, setBusy] = useState(false);
  return (
    <a
      className="entrada-shop__link"
      href={href}
      aria-busy={busy || undefined}
      onClick={(event) => {
        event.preventDefault();
        if (busy) return;
        setBusy(true);
        api
          .getAsset(href, { locale })
          .then((blob) => {
            const url = URL.createObjectURL(blob);
            const link = document.createElement("a");
            link.href = url;
            link.download = fileName;
            link.rel = "noopener";
            link.click();
            setTimeout(() => URL.revokeObjectURL(url), 10_000);
          })
          .catch((error: unknown) => controller.notify("error", toShopError(error)))
          .finally(() => setBusy(false));
      }}
    >
      {children}
    </a>
  );
}
