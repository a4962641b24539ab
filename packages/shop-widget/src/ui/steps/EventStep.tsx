import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState } from "react";
import { moneyValue } from "../../core/format";
import type { Article, Slot } from "../../core/types";
import { useTranslation } from "../../i18n/react";
import { useAddToCart } from "../cart-mutations";
import { useShop } from "../context";
import { Alert } from "../parts/Alert";
import { ErrorNotice } from "../parts/ErrorNotice";
import { JourneyError } from "../parts/JourneyError";
import { StepHeading } from "../parts/StepHeading";
import { keys, listedEvent } from "../query-cache";
import { EventImage } from "./EventList";

const slotLeft = (slot: Slot): number | undefined =>
  typeof slot.available === "number" ? slot.available : undefined;
const slotOpen = (slot: Slot): boolean =>
  typeof slot.available === "number" ? slot.available > 0 : slot.available;

/**
 * Step 2: one event — choose a slot and quantities of articles from its pricing assortments. A stepper button at
 * its limit and "Add to cart" while it adds are `aria-disabled` rather than `disabled`: a disabled button drops the
 * focus to `<body>` (WCAG 2.4.3), so a keyboard user pressing "−" down to 0 stays on it.
 */
export default function EventStep() {
  const { t } = useTranslation("checkout");
  const { journey, money, dateTime, controller } = useShop();
  const adding = useAddToCart();
  const id = useId();
  const eventId = journey.eventId;
  const query = useEvent(eventId);
  const event = query.data;
  const selection = (eventId && journey.selections[eventId]) || { quantities: {} };
  const [hint, setHint] = useState<string | undefined>();

  const viewed = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (event === undefined || viewed.current === event.id) return;
    viewed.current = event.id;
    const articles = event.pricingAssortments.flatMap((a) => a.articles);
    const first = articles[0];
    controller.tracker.track("view_item", {
      ...(first ? { currency: first.price.currency, value: moneyValue(first.price) } : {}),
      items: articles.map((a) => ({
        item_id: a.id,
        item_name: `${event.name} – ${a.name}`,
        item_category: event.name,
        price: moneyValue(a.price),
      })),
    });
  }, [event, controller]);

  if (eventId === undefined) return null;
  if (query.error) {
    return (
      <div className="entrada-shop__step">
        <StepHeading>{t("steps.event")}</StepHeading>
        <ErrorNotice
          error={query.error}
          actions={[
            { label: t("errors.retry"), onClick: () => void query.refetch() },
            { label: t("errors.events"), onClick: () => journey.goTo("events") },
          ]}
        />
      </div>
    );
  }
  if (event === undefined) {
    return (
      <p className="entrada-shop__loading" aria-busy="true">
        {t("shop.loading")}
      </p>
    );
  }

  const onlySlot = event.slots.length === 1 ? event.slots[0] : undefined;
  const slotId = selection.slotId ?? (onlySlot !== undefined && slotOpen(onlySlot) ? onlySlot.id : undefined);
  const setQuantity = (article: Article, value: number) => {
    const max = article.maxPerOrder ?? 20;
    const quantity = Math.max(0, Math.min(max, Number.isFinite(value) ? Math.floor(value) : 0));
    setHint(undefined);
    journey.setSelection(event.id, {
      ...(slotId === undefined ? {} : { slotId }),
      quantities: { ...selection.quantities, [article.id]: quantity },
    });
  };
  const total = Object.values(selection.quantities).reduce((n, q) => n + q, 0);
  // The running subtotal next to "Add to cart" (the cart's own total comes from the server once added).
  const articles = event.pricingAssortments.flatMap((a) => a.articles);
  const currency = articles[0]?.price.currency ?? "CHF";
  const subtotal = articles.reduce((n, a) => n + (selection.quantities[a.id] ?? 0) * a.price.amount, 0);

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    if (adding.isPending) return;
    if (slotId === undefined) return setHint(t("event.pickSlot"));
    if (total === 0) return setHint(t("event.pickArticle"));
    adding.add(event, { slotId, quantities: selection.quantities });
  };

  return (
    <form className="entrada-shop__step entrada-shop__step--bar" onSubmit={submit} noValidate>
      <div className="entrada-shop__event-head">
        {event.imageUrl ? <EventImage className="entrada-shop__hero" src={event.imageUrl} /> : null}
        <div>
          <StepHeading>{event.name}</StepHeading>
          <p className="entrada-shop__when">
            <time dateTime={event.startsAt}>
              {dateTime(event.startsAt, "day")} · {dateTime(event.startsAt, "time")}
            </time>
          </p>
          <p className="entrada-shop__muted">
            {event.venue.city ? `${event.venue.name}, ${event.venue.city}` : event.venue.name}
          </p>
        </div>
      </div>
      {event.description ? (
        // From the list, the summary stands in until getEvent brings the description (busy until then).
        <p className="entrada-shop__summary" aria-busy={query.isPlaceholderData || undefined}>
          {event.description}
        </p>
      ) : null}

      <fieldset className="entrada-shop__group">
        <legend>{t("event.slot")}</legend>
        {event.slots.map((slot) => {
          const left = slotLeft(slot);
          const open = slotOpen(slot);
          return (
            <div key={slot.id} className="entrada-shop__choice entrada-shop__option">
              <input
                type="radio"
                id={`${id}-slot-${slot.id}`}
                name={`${id}-slot`}
                value={slot.id}
                checked={slotId === slot.id}
                disabled={!open}
                onChange={() => {
                  setHint(undefined);
                  journey.setSelection(event.id, { ...selection, slotId: slot.id });
                }}
              />
              <label htmlFor={`${id}-slot-${slot.id}`}>
                <time dateTime={slot.startsAt}>
                  {dateTime(slot.startsAt, "day")} · {dateTime(slot.startsAt, "time")}
                </time>
                {open && left === undefined ? null : (
                  <span className="entrada-shop__muted entrada-shop__note">
                    {open ? t("event.left", { count: left }) : t("event.soldOut")}
                  </span>
                )}
              </label>
            </div>
          );
        })}
      </fieldset>

      {event.pricingAssortments.map((assortment) => (
        <fieldset key={assortment.id} className="entrada-shop__group">
          <legend>{assortment.name}</legend>
          {assortment.articles.map((article) => {
            const quantity = selection.quantities[article.id] ?? 0;
            const max = article.maxPerOrder ?? 20;
            const inputId = `${id}-article-${article.id}`;
            return (
              <div key={article.id} className="entrada-shop__article">
                <div>
                  <label htmlFor={inputId} className="entrada-shop__title">
                    {article.name}
                  </label>
                  <p id={`${inputId}-info`}>
                    <span className="entrada-shop__price">{money(article.price)}</span>
                    <span className="entrada-shop__muted">
                      {article.description ? ` · ${article.description}` : ""}
                      {article.maxPerOrder ? ` · ${t("event.max", { count: article.maxPerOrder })}` : ""}
                    </span>
                  </p>
                </div>
                <div className="entrada-shop__stepper">
                  <button
                    type="button"
                    className="entrada-shop__button"
                    aria-label={t("event.less", { name: article.name })}
                    aria-disabled={quantity === 0}
                    onClick={() => setQuantity(article, quantity - 1)}
                  >
                    −
                  </button>
                  <input
                    id={inputId}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={max}
                    value={quantity}
                    aria-describedby={`${inputId}-info`}
                    onChange={(e) => setQuantity(article, e.currentTarget.valueAsNumber)}
                  />
                  <button
                    type="button"
                    className="entrada-shop__button"
                    aria-label={t("event.more", { name: article.name })}
                    aria-disabled={quantity >= max}
                    onClick={() => setQuantity(article, quantity + 1)}
                  >
                    +
                  </button>
                </div>
              </div>
            );
          })}
        </fieldset>
      ))}

      {hint !== undefined && (
        <Alert>
          <p>{hint}</p>
        </Alert>
      )}
      <JourneyError step="event" />
      <div className="entrada-shop__bar">
        <p className="entrada-shop__subtotal">
          {total > 0
            ? t("event.selected", { count: total, total: money({ amount: subtotal, currency }) })
            : null}
        </p>
        <div className="entrada-shop__actions">
          <button type="button" className="entrada-shop__button" onClick={() => journey.goTo("events")}>
            {t("event.back")}
          </button>
          <button
            type="submit"
            className="entrada-shop__button entrada-shop__button--primary"
            aria-disabled={adding.isPending}
          >
            {adding.isPending ? t("event.adding") : t("event.add")}
          </button>
        </div>
      </div>
    </form>
  );
}

/**
 * The event: at once from the catalogue page that listed it (slots and articles included), then from `getEvent`
 * (description, survey, fresh availability). Coming from the list, the buyer picks and adds without a round trip.
 */
function useEvent(id: string | undefined) {
  const { api, locale } = useShop();
  const client = useQueryClient();
  return useQuery({
    queryKey: keys.event(locale, id ?? ""),
    queryFn: () => api.getEvent(id as string, { locale }),
    enabled: id !== undefined,
    placeholderData: (previous, query) =>
      query?.queryKey[3] === id ? previous : id === undefined ? undefined : listedEvent(client, locale, id),
  });
}
