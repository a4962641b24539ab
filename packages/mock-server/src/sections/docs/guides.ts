import type { GuideName } from "./content.ts";

/**
 * Where the guides' Markdown lives: the contract package ships the Guidelines and Webhooks guides; the shop
 * front-end guide lives with the widget (first existing candidate wins).
 */
export const GUIDE_SOURCES: Record<GuideName, { package: string; path: string }[]> = {
  guidelines: [{ package: "@entrada/openapi", path: "src/docs/guides/guidelines.md" }],
  webhooks: [{ package: "@entrada/openapi", path: "src/docs/guides/webhooks.md" }],
  "shop-front-end": [
    { package: "@entrada/openapi", path: "src/docs/guides/shop-front-end.md" },
    { package: "@entrada/shop-widget", path: "GUIDE.md" },
    { package: "@entrada/shop-widget", path: "docs/guide.md" },
    { package: "@entrada/shop-widget", path: "README.md" },
  ],
};

/**
 * Collect the guides with a platform-specific reader (`null` when a file is missing), so this module stays
 * platform-free.
 * @example
 * // Node:
 * const require = createRequire(import.meta.url);
 * loadGuides((pkg, path) => {
 *   try { return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), path), "utf8"); } catch { return null; }
 * });
 */
export function loadGuides(
  read: (pkg: string, path: string) => string | null,
): Partial<Record<GuideName, string>> {
  const guides: Partial<Record<GuideName, string>> = {};
  for (const [name, sources] of Object.entries(GUIDE_SOURCES) as [
    GuideName,
    { package: string; path: string }[],
  ][]) {
    for (const source of sources) {
      const text = read(source.package, source.path);
      if (text !== null) {
        guides[name] = text;
        break;
      }
    }
  }
  return guides;
}
