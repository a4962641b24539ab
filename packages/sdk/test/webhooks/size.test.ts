import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

async function gzipSize(contents: string): Promise<number> {
  const result = await build({
    stdin: { contents, resolveDir: root, loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    write: false,
    logLevel: "silent",
  });
  return gzipSync((result.outputFiles[0] as { contents: Uint8Array }).contents).length;
}

// A size budget, not a timing: deterministic for a given source and esbuild version.
describe("webhooks entry size (esbuild --minify, gzip)", () => {
  it("keeps verifyWebhook on its own and the whole entry within 2 KB", async () => {
    expect(await gzipSize('export { verifyWebhook } from "./src/webhooks/index.ts";')).toBeLessThanOrEqual(
      2048,
    );
    expect(await gzipSize('export * from "./src/webhooks/index.ts";')).toBeLessThanOrEqual(2048);
  });

  it("pulls in no Node built-ins", async () => {
    const result = await build({
      entryPoints: [`${root}/src/webhooks/index.ts`],
      bundle: true,
      format: "esm",
      platform: "neutral",
      write: false,
      metafile: true,
      logLevel: "silent",
    });
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith("node:"))).toEqual([]);
  });
});
