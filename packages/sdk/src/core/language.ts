/** Culture tags (`language-REGION`, BCP 47 subset) as the API accepts them in `Accept-Language`. */

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
  return `Invalid locale ${JSON.stringify(tag)}: expected a culture tag of the form language-REGION, e.g. "de-CH", "fr-CH" or "en-GB".`;
}
