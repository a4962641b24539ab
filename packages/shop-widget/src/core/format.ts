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

function dateFormat(locale: string, timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `d|${locale}|${timeZone}|${withTime}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (f === undefined) {
    f = new Intl.DateTimeFormat(locale, {
      dateStyle: withTime ? "medium" : "full",
      ...(withTime ? { timeStyle: "short" } : {}),
      timeZone,
    });
    cache.set(key, f);
  }
  return f;
}

/** Money in minor units, formatted for the culture (`de-CH`: "CHF 25.50"). */
export function formatMoney(money: Money, locale: string): string {
  const f = numberFormat(locale, money.currency);
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(money.amount / 10 ** digits);
}

export function formatDateTime(iso: string, locale: string, timeZone: string): string {
  return dateFormat(locale, timeZone, true).format(new Date(iso));
}

export function formatDate(iso: string, locale: string, timeZone: string): string {
  return dateFormat(locale, timeZone, false).format(new Date(iso));
}

/** "9:05" for a countdown. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** Minor units to the decimal value GA4 expects (`{amount: 2550, currency: "CHF"}` → 25.5). */
export function moneyValue(money: Money): number {
  const digits = numberFormat("en", money.currency).resolvedOptions().maximumFractionDigits ?? 2;
  return money.amount / 10 ** digits;
}
