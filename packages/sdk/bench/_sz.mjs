import { gzipSync } from "node:zlib";
import { build } from "esbuild";

for (const [name, contents, external] of [
  ["core", 'export { createClient } from "./src/index.ts";', []],
  ["own", 'export { createClient } from "./src/index.ts";', ["openapi-fetch"]],
  ["wh", 'export { verifyWebhook } from "./src/webhooks/index.ts";', []],
]) {
  const r = await build({
    stdin: { contents, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["import", "module", "default"],
    external,
    write: false,
    logLevel: "silent",
  });
  const code = r.outputFiles[0].contents;
  console.log(name, code.length, gzipSync(code, { level: 9 }).length);
}
