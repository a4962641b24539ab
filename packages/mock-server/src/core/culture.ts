import { CULTURES, defaultCultureTag, onCulturesChanged } from "./messages.ts";
import type { Culture } from "./types.ts";

/**
 * Cultures the mock serves, in order of preference for the `*` range, the default first: read from data (the
 * contract's culture catalogue and the mock's message files, core/messages.ts), never listed in code.
 */
export { CULTURES, pickText } from "./messages.ts";
export const DEFAULT_CULTURE: Culture = defaultCultureTag();

const TAG = /^(?:\*|[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*)$/;
const QVALUE = /^q=(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;

export class AcceptLanguageError extends Error {}

interface Range {
  tag: string;
  q: number;
  order: number;
}

/** Parses an RFC 9110 Accept-Language value; throws AcceptLanguageError when it is malformed. */
export function parseAcceptLanguage(header: string): Range[] {
  if (header.length > 512) throw new AcceptLanguageError("The header is longer than 512 characters.");
  const ranges: Range[] = [];
  const parts = header.split(",");
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]?.trim() ?? "";
    if (part === "") {
      // RFC 9110 list syntax tolerates empty elements, but a header made only of them is meaningless.
      continue;
    }
    const [rawTag = "", ...params] = part.split(";");
    const tag = rawTag.trim();
    if (!TAG.test(tag)) throw new AcceptLanguageError(`"${tag}" is not a language range.`);
    let q = 1;
    for (const param of params) {
      const p = param.trim();
      if (!QVALUE.test(p)) throw new AcceptLanguageError(`"${p}" is not a valid quality value (q=0 … q=1).`);
      q = Number(p.slice(2));
    }
    ranges.push({ tag, q, order: i });
  }
  if (ranges.length === 0) throw new AcceptLanguageError("The header names no language range.");
  return ranges.sort((a, b) => b.q - a.q || a.order - b.order);
}

const cache = new Map<string, Culture>();
onCulturesChanged(() => cache.clear());

/**
 * Negotiates the response culture: exact tag, then the language alone (`de-AT` → `de` → `de-CH`),
 * then the default. Ranges with q=0 are excluded. Throws AcceptLanguageError on a malformed header.
 */
export function negotiateCulture(header: string | undefined): Culture {
  if (header === undefined || header === "") return DEFAULT_CULTURE;
  const hit = cache.get(header);
  if (hit) return hit;
  const ranges = parseAcceptLanguage(header);
  const excluded = new Set(ranges.filter((r) => r.q === 0).map((r) => r.tag.toLowerCase()));
  let chosen: Culture = DEFAULT_CULTURE;
  outer: for (const range of ranges) {
    if (range.q === 0) continue;
    const tag = range.tag.toLowerCase();
    if (tag === "*") {
      const first = CULTURES.find((c) => !excluded.has(c.toLowerCase()));
      if (first) chosen = first;
      break;
    }
    const exact = CULTURES.find((c) => c.toLowerCase() === tag);
    if (exact && !excluded.has(tag)) {
      chosen = exact;
      break;
    }
    // Lookup fallback (RFC 4647 §3.4): truncate the range and try the language alone.
    const language = tag.split("-")[0] ?? "";
    for (const c of CULTURES) {
      if (c.slice(0, 2).toLowerCase() === language && !excluded.has(c.toLowerCase())) {
        chosen = c;
        break outer;
      }
    }
  }
  if (cache.size < 1000) cache.set(header, chosen);
  return chosen;
}
