import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { ErrorNotice } from "../parts/ErrorNotice";
import { HoldCountdown } from "../parts/HoldCountdown";
import { JourneyError } from "../parts/JourneyError";
import { StepHeading } from "../parts/StepHeading";
import { VoucherField } from "../parts/VoucherField";
import { useCart } from "../queries";
import { CartLines } from "./CartLines";

/** Step 3: the cart — change quantities, remove lines, see the hold countdown. */
export default function CartStep() {
  const { t } = useTranslation("checkout");
  const { journey } = useShop();
  const query = useCart(journey.cartId);
  const cart = query.data;
  const empty = cart === undefined || cart.items.length === 0;

  return (
    <div className="entrada-shop__step">
      <StepHeading>{t("cart.heading")}</StepHeading>
      {cart?.holdExpiresAt && cart.items.length > 0 ? <HoldCountdown expiresAt={cart.holdExpiresAt} /> : null}
      {query.error ? (
        <ErrorNotice
          error={query.error}
          actions={[{ label: t("errors.retry"), onClick: () => void query.refetch() }]}
        />
      ) : null}
      {empty ? <p>{t("cart.empty")}</p> : <CartLines cart={cart} editable />}
      {!empty && <VoucherField cart={cart} />}
      <JourneyError step="cart" />
      <div className="entrada-shop__actions">
        <button type="button" className="entrada-shop__button" onClick={() => journey.goTo("events")}>
          {t("cart.shop")}
        </button>
        {!empty && (
          <button
            type="button"
            className="entrada-shop__button entrada-shop__button--primary"
            onClick={() => journey.goTo("details")}
          >
            {t("cart.next")}
          </button>
        )}
      </div>
    </div>
  );
}
