import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

// Sizes are size-limit's (`.size-limit.json`, `pnpm size`, part of `pnpm test`); this checks what it cannot see.
describe("webhooks entry", () => {
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
