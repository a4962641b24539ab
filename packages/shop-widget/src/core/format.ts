import type { Money } from "./types";

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string, currency: string): Intl.NumberFormat {
  const key = `n|${locale}|${currency}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (f === undefined) {
    f = new Intl.NumberFormat(locale, { style: "currency", currency });
    cache.set(key, f);
  }
  return f;
}

type DateShape = "dateTime" | "day" | "time" | "month";
const SHAPES: Record<DateShape, Intl.DateTimeFormatOptions> = {
  dateTime: { dateStyle: "medium", timeStyle: "short" },
  // "Sat, 12 Dec 2026" / "sam. 12 déc. 2026": short enough for a card, with the weekday buyers look for.
  day: { weekday: "short", day: "numeric", month: "short", year: "numeric" },
  time: { hour: "numeric", minute: "2-digit" },
  month: { month: "long", year: "numeric" },
};

function dateFormat(locale: string, timeZone: string, shape: DateShape): Intl.DateTimeFormat {
  const key = `d|${locale}|${timeZone}|${shape}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, { ...SHAPES[shape], timeZone });
    cache.set(key, f);
  }
  return f;
}

/**
 * Makes the date formats the catalogue shows ahead of it: the engine loads a culture's data with the first of each,
 * which on a slow phone costs tens of milliseconds apiece, better spent while the shop's code is still on its way.
 */
export function prepareDateFormats(locale: string, timeZone: string): void {
  for (const shape of ["day", "time", "month"] as const) dateFormat(locale, timeZone, shape);
}

/** Money in minor units, formatted for the culture (`de-CH`: "CHF 25.50"). */
export function formatMoney(money: Money, locale: string): string {
  const f = numberFormat(locale, money.currency);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(money.amount / 10 ** digits);
}

/** A date and time, a day, a time of day or a month ("Dezember 2026"), formatted for the culture. */
export function formatDate(
  iso: string,
  locale: string,
  timeZone: string,
  shape: DateShape = "dateTime",
): string {
  return dateFormat(locale, timeZone, shape).format(new Date(iso));
}

/**
 * Minor units to the decimal value GA4 expects (`{amount: 2550, currency: "CHF"}` → 25.5), for any ISO 4217 code,
 * not only the contract's two (CHF, EUR): the digits come from `Intl`.
 */
export function moneyValue(money: Pick<Money, "amount"> & { currency: string }): number {
  const digits = numberFormat("en", money.currency).resolvedOptions().maximumFractionDigits ?? 2;
  return money.amount / 10 ** digits;
}
