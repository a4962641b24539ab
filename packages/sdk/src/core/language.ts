/** Culture tags (`language-REGION`, BCP 47 subset) as the API accepts them in `Accept-Language`. */

import { InvalidArgumentError } from "./errors.ts";
import type { CustomLocale } from "./transport.ts";

const CULTURE_TAG = /^([A-Za-z]{2,3})-([A-Za-z]{2}|[0-9]{3})$/;

/**
 * Normalizes a culture tag to `ll-RR` casing, or returns `undefined` when it is not of the form
 * `language-REGION`.
 * @example normalizeLocale("de-ch") // "de-CH"
 */
export function normalizeLocale(tag: string): string | undefined {
  const match = CULTURE_TAG.exec(tag.trim());
  if (!match) return undefined;
  return `${(match[1] as string).toLowerCase()}-${(match[2] as string).toUpperCase()}`;
}

/** Explains a bad tag in the words a developer needs to fix it. */
export function localeProblem(tag: unknown): string {
  return `Invalid locale ${JSON.stringify(tag)}: expected language-REGION, e.g. "de-CH".`;
}

/**
 * The escape hatch of the `Locale` type: any `language-REGION` tag the SDK does not list (the API falls back
 * from `de-AT` to `de`, then to its default). Throws `InvalidArgumentError` for a malformed tag.
 * @example createClient({ baseUrl, sessionToken, locale: customLocale("de-AT") })
 */
export function customLocale(tag: string): CustomLocale {
  const normalized = typeof tag === "string" ? normalizeLocale(tag) : undefined;
  if (normalized === undefined) throw new InvalidArgumentError("locale", localeProblem(tag));
  return normalized as CustomLocale;
}
