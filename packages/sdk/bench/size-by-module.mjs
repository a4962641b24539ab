// per-module gzip contribution: gzip(all) - gzip(all without module)
import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const entry = process.argv[2] ?? 'export { createClient } from "./src/index.ts";';
const common = { stdin: { contents: entry, resolveDir: process.cwd(), loader: "ts" }, bundle: true, format: "esm", platform: "neutral", mainFields: ["module","main"], conditions: ["import","module","default"], write: false, external: ["openapi-fetch"], target: "es2022" };
const min = await build({ ...common, minify: true });
const full = min.outputFiles[0].contents;
const gz = (b) => gzipSync(b, { level: 9 }).length;
console.log("min", full.length, "gzip", gz(full));
const r = await build({ ...common, minifySyntax: true, minifyIdentifiers: true, legalComments: "none" });
const text = r.outputFiles[0].text;
const parts = text.split(/^(?=\/\/ )/m);
const total = gz(Buffer.from(text));
const rows = [];
for (let i = 0; i < parts.length; i++) {
  const name = parts[i].split("\n")[0];
  const without = parts.filter((_, j) => j !== i).join("");
  rows.push([total - gz(Buffer.from(without)), parts[i].length, name]);
}
rows.sort((a, b) => b[0] - a[0]);
for (const [g, len, name] of rows) console.log(String(g).padStart(6), String(len).padStart(7), name);
