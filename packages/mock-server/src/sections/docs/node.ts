/**
 * Node-only helper: read the guides' Markdown from the workspace packages (the contract package ships the
 * Guidelines and Webhooks guides; the shop front-end guide lives with the widget). Browsers and bundlers pass the
 * guides to `createDocsServer` themselves.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { GuideName } from "./content.ts";

function packageDir(name: string): string | null {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    return null;
  }
}

function firstExisting(paths: (string | null)[]): string | null {
  for (const p of paths) if (p && existsSync(p)) return p;
  return null;
}

/** The guides found on disk, keyed by guide name (missing ones are left out). */
export function loadGuides(): Partial<Record<GuideName, string>> {
  const openapi = packageDir("@entrada/openapi");
  const widget = packageDir("@entrada/shop-widget");
  const files: Record<GuideName, string | null> = {
    guidelines: firstExisting([openapi && join(openapi, "src/docs/guides/guidelines.md")]),
    webhooks: firstExisting([openapi && join(openapi, "src/docs/guides/webhooks.md")]),
    "shop-front-end": firstExisting([
      openapi && join(openapi, "src/docs/guides/shop-front-end.md"),
      widget && join(widget, "GUIDE.md"),
      widget && join(widget, "docs/guide.md"),
      widget && join(widget, "README.md"),
    ]),
  };
  const guides: Partial<Record<GuideName, string>> = {};
  for (const [name, file] of Object.entries(files) as [GuideName, string | null][]) {
    if (file) guides[name] = readFileSync(file, "utf8");
  }
  return guides;
}
