/**
 * Size of the browser build as an app bundles it (Vite, minified, gzip -9), same run: the browser entry
 * (precompiled validators only) vs the same page with Ajv's run-time compiler injected (what the browser entry
 * carried before the compiler became injectable).
 *   pnpm --filter @entrada/mock-server bench:browser-size
 */
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { browserApp, browserAppWithCompiler, bundleApp } from "./bundle.ts";

const compiler = fileURLToPath(new URL("../src/compiler/index.ts", import.meta.url));
const rows = [];
for (const [name, app] of [
  ["browser entry (precompiled validators only)", browserApp],
  ["browser entry + Ajv run-time compiler", (entry: string) => browserAppWithCompiler(entry, compiler)],
] as const) {
  const bundle = await bundleApp("src/browser/index.ts", app);
  rows.push({ name, bytes: bundle.bytes, gzip: gzipSync(bundle.code, { level: 9 }).length });
}
const [without, withCompiler] = rows as [(typeof rows)[0], (typeof rows)[0]];
console.table(rows);
console.log(
  `without / with the compiler: ${(without.bytes / withCompiler.bytes).toFixed(3)} raw, ` +
    `${(without.gzip / withCompiler.gzip).toFixed(3)} gzip (${((withCompiler.gzip - without.gzip) / 1024).toFixed(1)} KiB gzip less)`,
);
