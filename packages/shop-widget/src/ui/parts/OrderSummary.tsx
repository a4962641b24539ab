import { type ReactNode, useId } from "react";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { useCart } from "../queries";
import { CartLines } from "../steps/CartLines";
import { HoldCountdown } from "./HoldCountdown";

/**
 * The checkout layout: the step's content, and beside it (below 768 px: above it) the order summary with
 * the running total and the hold countdown, sticky while the buyer scrolls a long form.
 */
export function CheckoutLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation("checkout");
  const { journey } = useShop();
  const id = useId();
  const cart = useCart(journey.cartId).data;
  const hasItems = cart !== undefined && cart.items.length > 0;
  return (
    <div className="entrada-shop__checkout">
      {hasItems && (
        <aside className="entrada-shop__summary-box" aria-labelledby={`${id}-summary`}>
          <h3 id={`${id}-summary`} className="entrada-shop__subheading">
            {t("payment.summary")}
          </h3>
          <CartLines cart={cart} />
          {cart.holdExpiresAt ? <HoldCountdown expiresAt={cart.holdExpiresAt} /> : null}
        </aside>
      )}
      <div className="entrada-shop__main">{children}</div>
    </div>
  );
}
