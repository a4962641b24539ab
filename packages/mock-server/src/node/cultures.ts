import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { type CultureData, registerCulture } from "../core/messages.ts";

const TAG = /^[a-z]{2,3}-[A-Z]{2}$/;

function readObject(file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${file}: must hold a JSON object`);
  return value as Record<string, unknown>;
}

function strings(file: string, value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new Error(`${file}: ${what} must be an object of texts`);
  for (const [key, text] of Object.entries(value))
    if (typeof text !== "string") throw new Error(`${file}: ${what} "${key}" must be a string`);
  return value as Record<string, string>;
}

/**
 * Reads one culture folder: `culture.json` (the contract's culture file: `tag`, `name`, optional `problems` with a
 * title and detail per slug) and `messages.json` (the mock's texts by key, as in `src/messages/<tag>.json`). Texts
 * it lacks fall back to the default culture's.
 */
export function readCultureFolder(dir: string): CultureData {
  const cultureFile = path.join(dir, "culture.json");
  const culture = readObject(cultureFile);
  const tag = culture.tag;
  if (typeof tag !== "string" || !TAG.test(tag))
    throw new Error(`${cultureFile}: "tag" must be a culture tag such as "rm-CH"`);
  if (path.basename(dir) !== tag)
    throw new Error(`${cultureFile}: the folder of culture "${tag}" must be named ${tag}`);
  if (typeof culture.name !== "string" || culture.name === "")
    throw new Error(`${cultureFile}: "name" must be the culture's name in itself`);
  const problems: Record<string, { title: string; detail: string }> = {};
  for (const [slug, text] of Object.entries((culture.problems ?? {}) as Record<string, unknown>)) {
    const { title, detail } = (text ?? {}) as { title?: unknown; detail?: unknown };
    if (typeof title !== "string" || typeof detail !== "string")
      throw new Error(`${cultureFile}: problem "${slug}" needs a "title" and a "detail" string`);
    problems[slug] = { title, detail };
  }
  const messagesFile = path.join(dir, "messages.json");
  const messages = existsSync(messagesFile) ? strings(messagesFile, readObject(messagesFile), "message") : {};
  return { tag, name: culture.name, problems, messages };
}

/**
 * Adds every culture under `dir` (one folder per tag, see {@link readCultureFolder}) to the cultures the mock
 * serves — process-wide, in folder-name order after the built-in ones — and returns their tags.
 */
export function loadCultures(dir: string): string[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir}: not a folder of cultures`);
  const folders = readdirSync(dir)
    .filter((name) => statSync(path.join(dir, name)).isDirectory())
    .sort();
  const cultures = folders.map((name) => readCultureFolder(path.join(dir, name)));
  for (const culture of cultures) registerCulture(culture);
  return cultures.map((c) => c.tag);
}
