import { useEffect, useId, useRef, useState } from "react";
import { formatDate, moneyValue } from "../../core/format";
import type { EventFilters, EventSummary } from "../../core/types";
import { useTranslation } from "../../i18n/react";
import { useShop } from "../context";
import { ErrorNotice } from "../parts/ErrorNotice";
import { regainFocus } from "../parts/focus";
import { StepHeading } from "../parts/StepHeading";
import { useCart, useEventsPage, useVenues } from "../queries";

/** Step 1: the catalogue with date and venue filters. Part of the first load; the other steps are lazy. */
export function EventList() {
  const { t } = useTranslation();
  const { journey, controller } = useShop();
  const { filters } = journey;
  const id = useId();
  const venues = useVenues();
  const first = useEventsPage(filters, undefined);
  const listKey = JSON.stringify(filters);
  const [more, setMore] = useState<{ key: string; cursors: string[] }>({ key: listKey, cursors: [] });
  const cursors = more.key === listKey ? more.cursors : [];
  const addPage = (cursor: string) => setMore({ key: listKey, cursors: [...cursors, cursor] });

  // One view_item_list per list shown (not per language switch).
  const reported = useRef("");
  const page = first.data;
  useEffect(() => {
    if (page === undefined || first.isPlaceholderData || reported.current === listKey) return;
    reported.current = listKey;
    controller.tracker.track("view_item_list", {
      item_list_id: "events",
      item_list_name: "Events",
      items: page.items.map((e, index) => ({
        item_id: e.id,
        item_name: e.name,
        index,
        ...(e.priceFrom ? { price: moneyValue(e.priceFrom) } : {}),
      })),
    });
  }, [page, listKey, first.isPlaceholderData, controller]);

  const set = (name: "venueId", value: string) => {
    const next = { ...filters };
    if (value === "") delete next[name];
    else next[name] = value;
    journey.setFilters(next);
  };
  const filtered =
    filters.dateFrom !== undefined || filters.dateTo !== undefined || filters.venueId !== undefined;
  const filterFields = useRef<HTMLFieldSetElement>(null);

  return (
    <div className="entrada-shop__step">
      <StepHeading>{t("events.heading")}</StepHeading>
      <fieldset ref={filterFields} className="entrada-shop__filters">
        <legend className="entrada-shop__visually-hidden">{t("events.filters")}</legend>
        <MonthFilter id={`${id}-when`} />
        <div className="entrada-shop__field">
          <label htmlFor={`${id}-venue`}>{t("events.venue")}</label>
          <select
            id={`${id}-venue`}
            value={filters.venueId ?? ""}
            onChange={(e) => set("venueId", e.currentTarget.value)}
          >
            <option value="">{t("events.allVenues")}</option>
            {(venues.data ?? []).map((v) => (
              <option key={v.id} value={v.id}>
                {v.city ? `${v.name}, ${v.city}` : v.name}
              </option>
            ))}
          </select>
        </div>
        {filtered && (
          <button
            type="button"
            className="entrada-shop__button entrada-shop__button--quiet"
            onClick={() => {
              journey.setFilters(filters.slug === undefined ? {} : { slug: filters.slug });
              // The button goes with the filters: the first filter takes the focus first, so it is never lost.
              filterFields.current?.querySelector("select")?.focus();
            }}
          >
            {t("events.reset")}
          </button>
        )}
      </fieldset>

      {first.error ? (
        <ErrorNotice
          error={first.error}
          actions={[{ label: t("errors.retry"), onClick: () => void first.refetch() }]}
        />
      ) : page === undefined ? (
        <p className="entrada-shop__loading entrada-shop__loading--events" aria-busy="true">
          {t("shop.loading")}
        </p>
      ) : (
        <>
          <p className="entrada-shop__muted" aria-live="polite">
            {page.items.length === 0 ? t("events.empty") : t("events.found", { count: page.items.length })}
          </p>
          <ul className="entrada-shop__events">
            <EventCards items={page.items} offset={0} />
            {cursors.map((cursor, index) => (
              <MorePage
                key={cursor}
                filters={filters}
                cursor={cursor}
                offset={(index + 1) * 100}
                onMore={index === cursors.length - 1 ? addPage : undefined}
              />
            ))}
          </ul>
          {cursors.length === 0 && page.nextCursor ? (
            <button
              type="button"
              className="entrada-shop__button"
              onClick={() => addPage(page.nextCursor as string)}
            >
              {t("events.more")}
            </button>
          ) : null}
        </>
      )}
      <CartLink />
    </div>
  );
}

function MorePage({
  filters,
  cursor,
  offset,
  onMore,
}: {
  filters: EventFilters;
  cursor: string;
  offset: number;
  onMore: ((cursor: string) => void) | undefined;
}) {
  const { t } = useTranslation();
  const page = useEventsPage(filters, cursor).data;
  if (page === undefined) return null;
  return (
    <>
      <EventCards items={page.items} offset={offset} takeFocus={onMore !== undefined} />
      {onMore && page.nextCursor ? (
        <li className="entrada-shop__more">
          <button
            type="button"
            className="entrada-shop__button"
            onClick={() => onMore(page.nextCursor as string)}
          >
            {t("events.more")}
          </button>
        </li>
      ) : null}
    </>
  );
}

/** A ref for a new page's first card: module-level, so React calls it once, when the card first shows. */
const focusFirstCard = (card: HTMLLIElement | null) => regainFocus(card?.querySelector("button"));

/**
 * The cards of one page. `takeFocus`: the page "More events" asked for; that button is gone (the next page brings its
 * own), so when the focus went with it, the page's first card takes it as it appears.
 */
function EventCards({
  items,
  offset,
  takeFocus = false,
}: {
  items: EventSummary[];
  offset: number;
  takeFocus?: boolean;
}) {
  const { t } = useTranslation();
  const { journey, money, locale, timeZone, controller } = useShop();
  const choose = (event: EventSummary, index: number) => {
    controller.tracker.track("select_item", {
      item_list_id: "events",
      item_list_name: "Events",
      items: [{ item_id: event.id, item_name: event.name, index }],
    });
    journey.openEvent(event.id);
  };
  return items.map((event, index) => (
    <li
      key={event.id}
      ref={takeFocus && index === 0 ? focusFirstCard : undefined}
      className="entrada-shop__card"
    >
      {event.imageUrl ? (
        <EventImage className="entrada-shop__image" src={event.imageUrl} first={offset + index === 0} />
      ) : null}
      <div className="entrada-shop__card-body">
        <p className="entrada-shop__when">
          <time dateTime={event.startsAt}>
            {formatDate(event.startsAt, locale, timeZone, "day")} ·{" "}
            {formatDate(event.startsAt, locale, timeZone, "time")}
          </time>
        </p>
        <h3 className="entrada-shop__title">{event.name}</h3>
        <p className="entrada-shop__muted">
          {event.venue.city ? `${event.venue.name}, ${event.venue.city}` : event.venue.name}
        </p>
        {event.summary ? <p className="entrada-shop__summary">{event.summary}</p> : null}
        <div className="entrada-shop__card-foot">
          <p className="entrada-shop__price">
            {event.available
              ? event.priceFrom
                ? t("events.from", { price: money(event.priceFrom) })
                : null
              : t("events.soldOut")}
          </p>
          <button
            type="button"
            className="entrada-shop__button entrada-shop__button--primary"
            disabled={!event.available}
            aria-label={t("events.chooseFor", { name: event.name })}
            onClick={() => choose(event, offset + index)}
          >
            {t("events.choose")}
          </button>
        </div>
      </div>
    </li>
  ));
}

/**
 * An event's picture, removed when it cannot load (offline, blocked, gone). `first`: the catalogue's first card, whose
 * picture is usually the largest thing on screen when the shop appears (the page's LCP element): loaded at once and
 * ahead of the others instead of lazily.
 */
export function EventImage({
  src,
  className,
  first = false,
}: {
  src: string;
  className: string;
  first?: boolean;
}) {
  const [failed, setFailed] = useState<string | undefined>();
  if (failed === src) return null;
  return (
    <img
      // Through the DOM, not a prop: React 18 warns about `fetchPriority` and React 19 about `fetchpriority`. The ref
      // runs in the same task as the element's creation, before the browser starts the image's request.
      ref={first ? highPriority : undefined}
      className={className}
      src={src}
      alt=""
      loading={first ? "eager" : "lazy"}
      onError={() => setFailed(src)}
    />
  );
}

const highPriority = (image: HTMLImageElement | null) => image?.setAttribute("fetchpriority", "high");

/** "Cart: 2 tickets" when the buyer has a cart, so they can get back to it from the catalogue. */
export function CartLink() {
  const { t } = useTranslation();
  const { journey } = useShop();
  // Subscribed: a remembered cart may arrive after the list.
  const cart = useCart(journey.cartId).data;
  const count = cart?.items.reduce((n, i) => n + i.quantity, 0) ?? 0;
  if (count === 0) return null;
  return (
    <button
      type="button"
      className="entrada-shop__button entrada-shop__cart-link"
      onClick={() => journey.goTo("cart")}
    >
      {t("events.cart", { count })}
    </button>
  );
}

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * The date filter: one month at a time, the months named for the culture ("décembre 2026"), instead of the
 * browser's date inputs (which follow the browser's language, not the widget's: `mm/dd/yyyy` next to
 * `12 déc.`). A range set by the host (`filters.dateFrom`/`dateTo`) that is not a month shows as itself.
 */
function MonthFilter({ id }: { id: string }) {
  const { t } = useTranslation();
  const { journey, locale, timeZone } = useShop();
  const { filters } = journey;
  const today = new Date();
  const months = Array.from({ length: 12 }, (_, i) => {
    const date = new Date(today.getFullYear(), today.getMonth() + i, 1);
    const y = date.getFullYear();
    const m = date.getMonth() + 1;
    const last = new Date(y, m, 0).getDate();
    return { value: `${y}-${pad(m)}`, from: `${y}-${pad(m)}-01`, to: `${y}-${pad(m)}-${pad(last)}` };
  });
  const month = months.find((m) => m.from === filters.dateFrom && m.to === filters.dateTo);
  const custom = month === undefined && (filters.dateFrom !== undefined || filters.dateTo !== undefined);
  const day = (date: string) => formatDate(`${date}T12:00:00Z`, locale, timeZone, "day");
  const choose = (value: string) => {
    const next = { ...filters };
    delete next.dateFrom;
    delete next.dateTo;
    const chosen = months.find((m) => m.value === value);
    if (chosen) Object.assign(next, { dateFrom: chosen.from, dateTo: chosen.to });
    if (value !== "custom") journey.setFilters(next);
  };
  return (
    <div className="entrada-shop__field">
      <label htmlFor={id}>{t("events.when")}</label>
      <select
        id={id}
        value={month?.value ?? (custom ? "custom" : "")}
        onChange={(e) => choose(e.currentTarget.value)}
      >
        <option value="">{t("events.anyDate")}</option>
        {custom && (
          <option value="custom">
            {filters.dateFrom ? day(filters.dateFrom) : "…"} – {filters.dateTo ? day(filters.dateTo) : "…"}
          </option>
        )}
        {months.map((m) => (
          <option key={m.value} value={m.value}>
            {formatDate(`${m.from}T12:00:00Z`, locale, timeZone, "month")}
          </option>
        ))}
      </select>
    </div>
  );
}
