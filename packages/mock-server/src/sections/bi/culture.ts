import { CULTURES, parseAcceptLanguage } from "../../core/culture.ts";
import type { Culture } from "../../core/types.ts";

/**
 * The feed's culture when the client names none (no `Accept-Language`, or only `*`): English, whoever runs the
 * refresh, so a warehouse loads the same names every time. `Accept-Language: fr-CH` (a BI tool's header option,
 * the SDK's `locale`) asks for another.
 */
export const FEED_CULTURE: Culture = "en-GB";

/**
 * The culture of the feed's texts and error messages: the first range of `Accept-Language` (by q-value) that
 * names a served culture or its language (`fr`, `fr-FR` → `fr-CH`); `*`, no header or no match → FEED_CULTURE.
 * @example feedCulture(undefined) // "en-GB";  feedCulture("de-DE, en;q=0.5") // "de-CH"
 */
export function feedCulture(header: string | undefined): Culture {
  if (!header) return FEED_CULTURE;
  let ranges: ReturnType<typeof parseAcceptLanguage>;
  try {
    ranges = parseAcceptLanguage(header);
  } catch {
    return FEED_CULTURE;
  }
  for (const range of ranges) {
    if (range.q === 0) continue;
    const tag = range.tag.toLowerCase();
    if (tag === "*") return FEED_CULTURE;
    const exact = CULTURES.find((c) => c.toLowerCase() === tag);
    if (exact) return exact;
    const language = tag.split("-")[0];
    const sameLanguage = CULTURES.find((c) => c.slice(0, 2).toLowerCase() === language);
    if (sameLanguage) return sameLanguage;
  }
  return FEED_CULTURE;
}
