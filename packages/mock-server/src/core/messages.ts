import catalogue from "@entrada/openapi/catalogue.json" with { type: "json" };
import { BUILT_IN_MESSAGES } from "../generated/messages.ts";
import type { Culture, LocalizedText, Message, MessageParams } from "./types.ts";

/**
 * The mock's texts as data: one message file per culture (`src/messages/<tag>.json`, a flat `key → text` map with
 * `{name}` placeholders), plus the problem catalogue's titles and details of the contract
 * (`@entrada/openapi/catalogue.json`, under `problem.<slug>.title` / `.detail`). Code names a text by key —
 * `msg("shop.discovery.there-is-no-event", { id })` — and the culture is chosen when the response is built.
 *
 * The registry is filled once at load from that data (and by `registerCulture` for cultures added at run time,
 * e.g. `entrada-mock --cultures <dir>`); a lookup is a map hit on a template parsed once per culture and key, so a
 * request never reads a file and never re-parses a text.
 */

/** A culture the mock serves: its tag, its name in itself, and its texts. */
export interface CultureData {
  tag: Culture;
  name: string;
  /** The culture served when Accept-Language names none of the others; the first registered default wins. */
  default?: boolean;
  /** Problem titles and default details by slug (the contract's culture file). */
  problems?: Record<string, { title: string; detail: string }>;
  /** The mock's texts by key (the culture's message file). */
  messages: Record<string, string>;
}

type Part = string | { name: string };

interface CultureTable {
  name: string;
  texts: Map<string, string>;
  compiled: Map<string, Part[]>;
}

const tables = new Map<Culture, CultureTable>();
/** Registered culture tags in serving order: the default first (the `*` range picks it). */
export const CULTURES: Culture[] = [];
const listeners: Array<() => void> = [];
let defaultCulture: Culture = "";

/** The default culture (the one marked `default`). */
export function defaultCultureTag(): Culture {
  return defaultCulture;
}

/** Called after a culture is added (the negotiation cache clears itself this way). */
export function onCulturesChanged(listener: () => void): void {
  listeners.push(listener);
}

/** Adds (or replaces) a culture. Its problem texts become `problem.<slug>.title` / `.detail` messages. */
export function registerCulture(data: CultureData): void {
  const texts = new Map(Object.entries(data.messages));
  for (const [slug, text] of Object.entries(data.problems ?? {})) {
    texts.set(`problem.${slug}.title`, text.title);
    texts.set(`problem.${slug}.detail`, text.detail);
  }
  const known = tables.has(data.tag);
  tables.set(data.tag, { name: data.name, texts, compiled: new Map() });
  if (!known) {
    if (data.default && !defaultCulture) CULTURES.unshift(data.tag);
    else CULTURES.push(data.tag);
  }
  if (data.default && !defaultCulture) defaultCulture = data.tag;
  for (const listener of listeners) listener();
}

/** The name of a culture in itself (`Deutsch (Schweiz)`), or its tag when it has none. */
export function cultureName(tag: Culture): string {
  return tables.get(tag)?.name ?? tag;
}

/** A reference to the text `key`, with values for its `{name}` placeholders. */
export function msg(key: string, params?: MessageParams): Message {
  return params ? { $msg: key, params } : { $msg: key };
}

export function isMessage(value: unknown): value is Message {
  return typeof value === "object" && value !== null && typeof (value as Message).$msg === "string";
}

function compile(text: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    parts.push({ name: match[1] as string });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

function template(culture: Culture, key: string): Part[] | undefined {
  const table = tables.get(culture);
  if (!table) return undefined;
  let parts = table.compiled.get(key);
  if (parts) return parts;
  const text = table.texts.get(key);
  if (text === undefined) return undefined;
  parts = compile(text);
  table.compiled.set(key, parts);
  return parts;
}

/**
 * The text of `key` in `culture` with its placeholders filled in; falls back to the default culture, then to the
 * key itself (so a missing text shows up instead of an empty string). A placeholder without a value stays as is,
 * or becomes `missing` when that is given.
 */
export function formatMessage(
  culture: Culture,
  key: string,
  params?: MessageParams,
  missing?: string,
): string {
  const parts = template(culture, key) ?? template(defaultCulture, key);
  if (!parts) return key;
  let out = "";
  for (const part of parts) {
    if (typeof part === "string") out += part;
    else {
      const value = params?.[part.name];
      if (value === undefined) out += missing ?? `{${part.name}}`;
      else if (typeof value === "object") out += pickText(value, culture);
      else out += String(value);
    }
  }
  return out;
}

/** Whether `culture` (or the default culture) has a text for `key`. */
export function hasMessage(key: string): boolean {
  return tables.get(defaultCulture)?.texts.has(key) ?? false;
}

/**
 * A text in `culture`: a message reference is looked up; literal texts by culture (user data, seeds given per
 * culture) fall back to the default culture and then to any text present.
 */
export function pickText(value: LocalizedText | undefined, culture: Culture): string {
  if (!value) return "";
  if (isMessage(value)) return formatMessage(culture, value.$msg, value.params);
  return value[culture] ?? value[defaultCulture] ?? Object.values(value)[0] ?? "";
}

const pickers = new Map<Culture, (value: LocalizedText) => string>();

/** A handler context's `text`: picks a text in `culture` (one function per culture, made on first use). */
export function textPicker(culture: Culture): (value: LocalizedText) => string {
  let pick = pickers.get(culture);
  if (!pick) {
    pick = (value) => pickText(value, culture);
    pickers.set(culture, pick);
  }
  return pick;
}

/** A text in every registered culture (to compare a name across languages). */
export function everyCulture(value: LocalizedText): string[] {
  return CULTURES.map((culture) => pickText(value, culture));
}

for (const culture of catalogue.cultures) {
  const problems: Record<string, { title: string; detail: string }> = {};
  for (const problem of catalogue.problems) {
    const title = (problem.title as Record<string, string>)[culture.tag];
    const detail = (problem.detail as Record<string, string>)[culture.tag];
    if (title !== undefined && detail !== undefined) problems[problem.slug] = { title, detail };
  }
  registerCulture({
    tag: culture.tag,
    name: culture.name,
    default: culture.default,
    problems,
    messages: BUILT_IN_MESSAGES[culture.tag] ?? {},
  });
}
