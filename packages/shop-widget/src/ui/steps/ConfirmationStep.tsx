import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { AssetLink } from "../parts/AssetLink";
import { StepHeading } from "../parts/StepHeading";
import { QrCode } from "./QrCode";

/** Step 6: the order with one QR code per ticket (its Quicode), ticket PDFs and the receipt. */
export default function ConfirmationStep() {
  const { t } = useTranslation("checkout");
  const { journey, money } = useShop();
  const order = journey.order;
  if (order === undefined) return null;
  const names = new Map(order.items.map((i) => [`${i.articleId}|${i.slotId}`, i.name]));
  return (
    <div className="entrada-shop__step">
      <StepHeading>{t("confirmation.heading")}</StepHeading>
      <p>
        {t("confirmation.order", { id: order.id })} · {money(order.total)}
      </p>
      <p className="entrada-shop__muted">{t("confirmation.sent", { email: order.customer.email })}</p>
      <ol className="entrada-shop__tickets">
        {order.tickets.map((ticket, index) => {
          const n = index + 1;
          const name = names.get(`${ticket.articleId}|${ticket.slotId}`) ?? ticket.articleId;
          return (
            <li key={ticket.id} className="entrada-shop__ticket">
              <h3 className="entrada-shop__subheading">{t("confirmation.ticket", { n, name })}</h3>
              <QrCode value={ticket.quicode} label={t("confirmation.qr", { n })} />
              <p className="entrada-shop__quicode">{ticket.quicode}</p>
              <AssetLink href={ticket.ticketUrl} fileName={`ticket-${ticket.id}.pdf`}>
                {t("confirmation.pdf", { n })}
              </AssetLink>
            </li>
          );
        })}
      </ol>
      <p>
        <AssetLink href={order.receiptUrl} fileName={`receipt-${order.id}.pdf`}>
          {t("confirmation.receipt")}
        </AssetLink>
      </p>
      <button
        type="button"
        className="entrada-shop__button entrada-shop__button--primary"
        onClick={journey.restart}
      >
        {t("confirmation.again")}
      </button>
    </div>
  );
}
