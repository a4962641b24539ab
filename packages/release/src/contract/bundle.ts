import path from "node:path";
import { fileURLToPath } from "node:url";

/** The contract's split source, bundled the way `pnpm generate` bundles it. */
export const CONTRACT_SOURCE = "packages/openapi/src/openapi.yaml";

interface Generator {
  bundle(source: string): unknown;
}

const generator = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../openapi/scripts/generate.mjs",
);

/**
 * Bundles `source` (absolute, or relative to the repository root) with Redocly. A source that does not bundle
 * throws one error naming the file, Redocly's own lines (its banners dropped) and the fix.
 */
export async function bundleContract(root: string, source = CONTRACT_SOURCE): Promise<unknown> {
  const { bundle } = (await import(generator)) as Generator;
  try {
    return bundle(path.resolve(root, source));
  } catch (error) {
    const lines = (error as Error).message
      .split("\n")
      .filter((line) => line.trim() && !/^\s*[║╔╚]/.test(line))
      .slice(1, 12)
      .map((line) => `  ${line.trim()}`);
    throw new Error(
      `the contract no longer bundles (${source}):\n${lines.join("\n")}\nfix the source it names, then run \`pnpm generate\``,
    );
  }
}
