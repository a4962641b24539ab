/** Culture tags (`language-REGION`, BCP 47 subset) as the API accepts them in `Accept-Language`. */

import { InvalidArgumentError } from "./errors.ts";
import type { CustomLocale } from "./types.ts";

/**
 * Normalizes a culture tag to `ll-RR` casing, or returns `undefined` when it is not of the form
 * `language-REGION`.
 * @example normalizeLocale("de-ch") // "de-CH"
 */
export function normalizeLocale(tag: string): string | undefined {
  const match = /^([A-Za-z]{2,3})-([A-Za-z]{2}|[0-9]{3})$/.exec(tag.trim());
  if (!match) return undefined;
  return `${(match[1] as string).toLowerCase()}-${(match[2] as string).toUpperCase()}`;
}

/**
 * `tag` normalized (`undefined` when not given), or what `fail` does (it throws) with an explanation in the words
 * a developer needs.
 */
export function checkedLocale(tag: unknown, fail: (problem: string) => never): string | undefined {
  return tag === undefined
    ? undefined
    : (typeof tag === "string" && normalizeLocale(tag)) ||
        fail(`Invalid locale ${JSON.stringify(tag)}: expected language-REGION, e.g. "de-CH".`);
}

/**
 * The escape hatch of the `Locale` type: any `language-REGION` tag the SDK does not list (the API falls back
 * from `de-AT` to `de`, then to its default). Throws `InvalidArgumentError` for a malformed tag.
 * @example createClient({ baseUrl, sessionToken, locale: customLocale("de-AT") })
 */
export function customLocale(tag: string): CustomLocale {
  return checkedLocale(tag ?? null, (problem) => {
    throw new InvalidArgumentError("locale", problem);
  }) as CustomLocale;
}
