import { Fragment } from "react";
import { orderNumber } from "../../core/checkout-format";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { AssetLink } from "../parts/AssetLink";
import { ErrorNotice } from "../parts/ErrorNotice";
import { useLineEvents } from "../parts/event-info";
import { StepHeading } from "../parts/StepHeading";
import { QrCode } from "./QrCode";

/**
 * Step 6: the order (a human order number, not the raw id) with one ticket card per ticket: event, date,
 * time, venue, a large centred QR code (its Quicode) with the code below, the ticket PDF; and the receipt.
 */
export default function ConfirmationStep() {
  const { t } = useTranslation("checkout");
  const { journey, money, dateTime } = useShop();
  const order = journey.order;
  const events = useLineEvents(order?.tickets.map((ticket) => ticket.eventId) ?? []);
  if (order === undefined) return null;
  // A ticket PDF or the receipt that did not download (AssetLink), with "Try again".
  const failed = journey.error?.step === "confirmation" ? journey.error : undefined;
  const names = new Map(order.items.map((i) => [`${i.articleId}|${i.slotId}`, i.name]));
  return (
    <div className="entrada-shop__step">
      <div className="entrada-shop__done">
        <svg className="entrada-shop__done-icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M5 12.5l4.5 4.5L19 7.5" />
        </svg>
        <StepHeading>{t("confirmation.heading")}</StepHeading>
        <p className="entrada-shop__order-no">
          <strong title={order.id}>{t("confirmation.order", { id: orderNumber(order.id) })}</strong>
        </p>
        <p className="entrada-shop__price">{money(order.total)}</p>
        <p className="entrada-shop__muted">{t("confirmation.sent", { email: order.customer.email })}</p>
      </div>
      <ol className="entrada-shop__tickets">
        {order.tickets.map((ticket, index) => {
          const n = index + 1;
          const name = names.get(`${ticket.articleId}|${ticket.slotId}`) ?? ticket.articleId;
          const event = events.of(ticket.eventId, ticket.slotId);
          return (
            <li key={ticket.id} className="entrada-shop__ticket">
              <h3 className="entrada-shop__subheading">{t("confirmation.ticket", { n, name })}</h3>
              {event && (
                <p className="entrada-shop__ticket-when">
                  <time dateTime={event.startsAt}>
                    <strong>{dateTime(event.startsAt, "day")}</strong> · {dateTime(event.startsAt, "time")}
                  </time>
                  <br />
                  <span className="entrada-shop__muted">{event.venue}</span>
                </p>
              )}
              <QrCode value={ticket.quicode} label={t("confirmation.qr", { n })} />
              <p className="entrada-shop__quicode">
                {ticket.quicode.split(/(?<=[._])/).map((part, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string
                  <Fragment key={i}>
                    {i > 0 && <wbr />}
                    {part}
                  </Fragment>
                ))}
              </p>
              <AssetLink href={ticket.ticketUrl} fileName={`ticket-${ticket.id}.pdf`}>
                {t("confirmation.pdf", { n })}
              </AssetLink>
            </li>
          );
        })}
      </ol>
      {failed && (
        <ErrorNotice
          error={failed.error}
          text={failed.text}
          focusKey={failed}
          actions={failed.retry ? [{ label: t("errors.retry"), onClick: failed.retry }] : []}
        />
      )}
      <div className="entrada-shop__actions">
        <AssetLink href={order.receiptUrl} fileName={`receipt-${order.id}.pdf`}>
          {t("confirmation.receipt")}
        </AssetLink>
        <button
          type="button"
          className="entrada-shop__button entrada-shop__button--primary"
          onClick={journey.restart}
        >
          {t("confirmation.again")}
        </button>
      </div>
    </div>
  );
}
