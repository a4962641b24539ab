#!/usr/bin/env node
// Where the bytes of an entry come from: each module's share of the min+gzip size (what the bundle loses when the
// module's code is left out), largest first. size-limit (`pnpm size`) stays the budget; this finds what to cut.
// Usage (from packages/sdk): `pnpm exec node bench/size-by-module.mjs ['export { createClient } from "./src/index.ts";']`
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const entry = process.argv[2] ?? 'export { createClient } from "./src/index.ts";';
const options = {
  stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" },
  bundle: true,
  format: "esm",
  platform: "neutral",
  mainFields: ["module", "main"],
  conditions: ["import", "module", "default"],
  target: "es2022",
  write: false,
  logLevel: "silent",
};
const gzip = (bytes) => gzipSync(bytes, { level: 9 }).length;
const minified = (await build({ ...options, minify: true })).outputFiles[0].contents;
console.log(`entry: ${entry}\nmin ${minified.length} B, min+gzip ${gzip(minified)} B\n`);

// Minified names and syntax, but whitespace and esbuild's `// path` markers kept, so the output splits by module.
const marked = (
  await build({ ...options, minifySyntax: true, minifyIdentifiers: true, legalComments: "none" })
).outputFiles[0].text;
const parts = marked.split(/^(?=\/\/ )/m);
const whole = gzip(Buffer.from(marked));
const rows = parts.map((part, i) => {
  const without = gzip(Buffer.from(parts.filter((_, j) => j !== i).join("")));
  return { module: part.split("\n")[0].slice(3), gzipShare: whole - without, bytes: part.length };
});
rows.sort((a, b) => b.gzipShare - a.gzipShare);
for (const row of rows)
  console.log(
    `${String(row.gzipShare).padStart(6)} B gzip  ${String(row.bytes).padStart(6)} B  ${row.module}`,
  );
