import { gzipSync } from "node:zlib";
import { build } from "esbuild";

for (const entry of [
  'export { createClient } from "./src/index.ts";',
  'export { createShopClient } from "./src/shop.ts";',
]) {
  const r = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "module", "default"],
    target: "es2022",
    write: false,
    logLevel: "silent",
    minify: true,
  });
  const c = r.outputFiles[0].contents;
  console.log(entry, c.length, gzipSync(c, { level: 9 }).length);
}
