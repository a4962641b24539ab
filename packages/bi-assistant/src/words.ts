/**
 * What an answer's tables say to a person, in the caller's language (`Accept-Language`, as everywhere in Entrada:
 * German, French, Italian or English, English otherwise): column titles, and figures written the way that language
 * writes them. The structured answer keeps plain numbers and codes.
 */

export type Language = "en" | "de" | "fr" | "it";

const LOCALES: Record<Language, string> = { en: "en-GB", de: "de-CH", fr: "fr-CH", it: "it-CH" };

/** The first language of an `Accept-Language` header the assistant speaks (by quality), else English. */
export function languageOf(header: string | null | undefined): Language {
  const ranked = (header ?? "")
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.toLowerCase(), q: q === undefined ? 1 : Number(q), i };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const base = tag.split("-")[0] as Language;
    if (base in LOCALES) return base;
  }
  return "en";
}

const TITLES = {
  event: { en: "Event", de: "Veranstaltung", fr: "Événement", it: "Evento" },
  eventId: { en: "Event id", de: "Veranstaltungs-ID", fr: "ID de l’événement", it: "ID evento" },
  startsAt: { en: "Starts", de: "Beginn", fr: "Début", it: "Inizio" },
  venue: { en: "Venue", de: "Ort", fr: "Lieu", it: "Luogo" },
  timeZone: { en: "Time zone", de: "Zeitzone", fr: "Fuseau horaire", it: "Fuso orario" },
  day: { en: "Day", de: "Tag", fr: "Jour", it: "Giorno" },
  tickets: { en: "Tickets", de: "Tickets", fr: "Billets", it: "Biglietti" },
  revenue: { en: "Revenue", de: "Umsatz", fr: "Chiffre d’affaires", it: "Incasso" },
  admitted: { en: "Admitted", de: "Eingelassen", fr: "Entrés", it: "Entrati" },
  noShows: { en: "No-shows", de: "Nicht erschienen", fr: "Absents", it: "Assenti" },
  noShowRate: { en: "No-show rate", de: "No-Show-Quote", fr: "Taux d’absence", it: "Tasso di assenza" },
  gate: { en: "Gate", de: "Eingang", fr: "Entrée", it: "Ingresso" },
  entries: { en: "Entries", de: "Eintritte", fr: "Entrées", it: "Ingressi" },
  peakHour: { en: "Peak hour", de: "Spitzenstunde", fr: "Heure de pointe", it: "Ora di punta" },
  peakEntries: {
    en: "Entries in the peak hour",
    de: "Eintritte in der Spitzenstunde",
    fr: "Entrées à l’heure de pointe",
    it: "Ingressi nell’ora di punta",
  },
  upcoming: {
    en: "not held yet",
    de: "noch nicht durchgeführt",
    fr: "pas encore eu lieu",
    it: "non ancora svolto",
  },
} as const satisfies Record<string, Record<Language, string>>;

export type Title = keyof typeof TITLES;

/** Words and number formats of one language. */
export class Words {
  readonly language: Language;
  readonly locale: string;
  readonly #integer: Intl.NumberFormat;
  readonly #rate: Intl.NumberFormat;
  readonly #money = new Map<string, Intl.NumberFormat>();

  constructor(language: Language) {
    this.language = language;
    this.locale = LOCALES[language];
    this.#integer = new Intl.NumberFormat(this.locale, { maximumFractionDigits: 0 });
    this.#rate = new Intl.NumberFormat(this.locale, {
      style: "percent",
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
  }

  title(key: Title): string {
    return TITLES[key][this.language];
  }

  /** Column titles for a table's keys. */
  titles(keys: readonly Title[]): Record<string, string> {
    return Object.fromEntries(keys.map((k) => [k, this.title(k)]));
  }

  count(n: number): string {
    return this.#integer.format(n);
  }

  /** 0.1234 → "12.3 %" (one decimal, as the language writes a percentage). */
  rate(r: number): string {
    return this.#rate.format(r);
  }

  /** An amount in major units with its currency and as many decimals as the currency has ("CHF 1,234.50"). */
  money(amount: number, currency: string | null): string {
    if (!currency) return this.#integer.format(amount);
    let format = this.#money.get(currency);
    if (!format) {
      format = new Intl.NumberFormat(this.locale, { style: "currency", currency, currencyDisplay: "code" });
      this.#money.set(currency, format);
    }
    return format.format(amount);
  }
}
