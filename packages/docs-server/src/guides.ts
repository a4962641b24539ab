import type { GuideName } from "./content.ts";

/**
 * Where the guides' Markdown lives: all three in the contract package (`@entrada/openapi/src/docs/guides`), the one
 * source the MCP tools, the `/ai` mirrors and the HTML reference are built from.
 */
export const GUIDE_SOURCES: Record<GuideName, { package: string; path: string }> = {
  "shop-front-end": { package: "@entrada/openapi", path: "src/docs/guides/shop-front-end.md" },
  guidelines: { package: "@entrada/openapi", path: "src/docs/guides/guidelines.md" },
  webhooks: { package: "@entrada/openapi", path: "src/docs/guides/webhooks.md" },
};

/**
 * Collect the guides with a platform-specific reader (`null` when a file is missing), so this module stays
 * platform-free. On Node, `loadGuidesFromPackages()` (`./node.ts`) does this from the installed packages.
 */
export function loadGuides(
  read: (pkg: string, path: string) => string | null,
): Partial<Record<GuideName, string>> {
  const guides: Partial<Record<GuideName, string>> = {};
  for (const [name, source] of Object.entries(GUIDE_SOURCES) as [
    GuideName,
    { package: string; path: string },
  ][]) {
    const text = read(source.package, source.path);
    if (text !== null) guides[name] = text;
  }
  return guides;
}
