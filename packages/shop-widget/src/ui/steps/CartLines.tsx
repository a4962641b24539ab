import { type ReactNode, useId, useLayoutEffect, useRef } from "react";
import type { Cart } from "../../core/types";
import { useTranslation } from "../../i18n/react";
import { useChangeQuantity } from "../cart-mutations";
import { type ShopContextValue, useShop } from "../context";
import { type LineEvent, useLineEvents } from "../parts/event-info";
import { regainFocus, useHandOnFocus } from "../parts/focus";

/**
 * The cart's lines and total; editable in the cart step, read-only as the payment summary. While a change is on
 * its way the line controls are `aria-disabled`, not `disabled` (which would drop the focus to `<body>`). A removed
 * line takes its Remove button with it: the focus goes to the Remove button now in its place (the next line's), else
 * the previous line's; after the last line's, the cart step's heading.
 */
export function CartLines({ cart, editable = false }: { cart: Cart; editable?: boolean }) {
  const { t } = useTranslation("checkout");
  const { money, dateTime } = useShop();
  const quantity = useChangeQuantity();
  const id = useId();
  const events = useLineEvents(cart.items.map((i) => i.eventId));
  const table = useRef<HTMLTableElement>(null);
  // The index of the line whose Remove button was pressed, until the change is done.
  const removing = useRef<number | undefined>(undefined);
  // The last line's removal empties the cart and takes the lines away: the step's heading takes the focus.
  useHandOnFocus(table);
  useLayoutEffect(() => {
    const at = removing.current;
    if (at === undefined || quantity.isPending) return;
    removing.current = undefined;
    const buttons = table.current?.querySelectorAll<HTMLButtonElement>("tbody button");
    regainFocus(buttons?.[at] ?? buttons?.[at - 1]);
  });
  const busy = quantity.isPending;
  return (
    <table ref={table} className="entrada-shop__lines">
      <tbody>
        {cart.items.map((item, index) => {
          // Lines of one event can share a name (same article name in two price categories): the unit price
          // tells them apart, on screen and in the controls' names.
          const label = `${item.name} (${money(item.unitPrice)})`;
          return (
            <tr key={item.id}>
              <th scope="row">
                <span className="entrada-shop__line-name">{item.name}</span>{" "}
                <LineMeta of={events.of(item.eventId, item.slotId)} dateTime={dateTime} />
                <span className="entrada-shop__muted">{money(item.unitPrice)}</span>
              </th>
              <td>
                {editable ? (
                  <>
                    <label className="entrada-shop__visually-hidden" htmlFor={`${id}-line-${item.id}`}>
                      {t("cart.quantity", { name: label })}
                    </label>
                    <select
                      id={`${id}-line-${item.id}`}
                      value={item.quantity}
                      aria-disabled={busy}
                      onChange={(e) => {
                        if (!busy) quantity.change(item, Number(e.currentTarget.value));
                      }}
                    >
                      {Array.from({ length: Math.max(10, item.quantity) }, (_, i) => i + 1).map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  </>
                ) : (
                  `${item.quantity} ×`
                )}
              </td>
              <td className="entrada-shop__amount">{money(item.lineTotal)}</td>
              {editable && (
                <td>
                  <button
                    type="button"
                    className="entrada-shop__button entrada-shop__button--quiet"
                    aria-disabled={busy}
                    aria-label={t("cart.remove", { name: label })}
                    onClick={() => {
                      if (busy) return;
                      removing.current = index;
                      quantity.change(item, 0);
                    }}
                  >
                    {t("cart.removeShort")}
                  </button>
                </td>
              )}
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        {cart.discounts.length > 0 && (
          <SumRow label={t("cart.subtotal")} amount={money(cart.subtotal)} editable={editable} />
        )}
        {cart.discounts.map((line) => (
          <SumRow
            key={line.code}
            label={
              <>
                {t("voucher.discount", { code: line.code })}{" "}
                <span className="entrada-shop__muted">{line.name}</span>
              </>
            }
            amount={`−${money(line.amount)}`}
            editable={editable}
          />
        ))}
        <SumRow label={t("cart.total")} amount={money(cart.total)} editable={editable} />
      </tfoot>
    </table>
  );
}

/** A row of the lines' foot: subtotal, a discount line, the total (amount in the line-total column). */
function SumRow({ label, amount, editable }: { label: ReactNode; amount: string; editable: boolean }) {
  return (
    <tr>
      <th scope="row">{label}</th>
      <td />
      <td className="entrada-shop__amount">{amount}</td>
      {editable && <td />}
    </tr>
  );
}

/** When and where a line (or a ticket) is for: "Sat 12 Dec 2026 · 19:30 · Volkshaus, Zürich". */
export function LineMeta({
  of,
  dateTime,
}: {
  of: LineEvent | undefined;
  dateTime: ShopContextValue["dateTime"];
}) {
  if (of === undefined) return null;
  return (
    <span className="entrada-shop__meta">
      <time dateTime={of.startsAt}>
        {dateTime(of.startsAt, "day")} · {dateTime(of.startsAt, "time")}
      </time>{" "}
      · {of.venue}{" "}
    </span>
  );
}
