// Size budgets of the shop widget and the time of a live language switch. npm build: gzip -9 of the output
// minified again, as a host's bundler would ship it. Script-tag builds: gzip -9 of the files as shipped (the
// bytes a browser downloads from a CDN; nobody re-minifies a script tag). `node bench/size.mjs` builds and reports; `--check` fails when over budget;
// `--no-build` measures the existing dist/.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { measureLanguageSwitch } from "./language-switch.mjs";
import { analyse, closure, gzipSize, kb, listFiles, reachable } from "./measure.mjs";

// Production builds whatever the caller's environment says (a test runner sets NODE_ENV=test).
process.env.NODE_ENV = "production";
const root = fileURLToPath(new URL("..", import.meta.url));
const args = new Set(process.argv.slice(2));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

const BUDGET = {
  npmFirst: 32 * 1024,
  npmAll: 90 * 1024,
  css: 8 * 1024,
  language: 4 * 1024,
  // Script tag, as shipped: a first load of at most 50 KB, and a whole purchase (the ESM chunks of one
  // language, or the classic script with all four) still under the pretix widget's first load (≈55–60 KB).
  scriptFirst: 50 * 1024,
  scriptJourney: 55 * 1024,
  scriptClassic: 55 * 1024,
};
const ANCHORS = [
  ["pretix widget", "≈55–60 KB"],
  ["Shopify Buy Button", "≈64 KB (59.5 JS + 5 CSS)"],
  ["Adyen Drop-in + Card", "≈111 KB + 19.8 KB CSS"],
];

if (!args.has("--no-build")) {
  const quiet = { logLevel: "error" };
  await build({ ...quiet, root, configFile: join(root, "vite.config.ts") });
  await build({ ...quiet, root, configFile: join(root, "vite.script.config.ts"), mode: "esm" });
  await build({ ...quiet, root, configFile: join(root, "vite.script.config.ts"), mode: "iife" });
}

const dist = join(root, "dist");
const npmJs = listFiles(dist).filter(
  (f) => f.endsWith(".js") && !f.includes("/script/") && !f.includes("/types/"),
);
const texts = (dir, namespace, locale) =>
  listFiles(dir).find((f) => new RegExp(`/texts-${namespace}-${locale}-[\\w-]+\\.js$`).test(f));
const sum = (files) => files.reduce((n, f) => n + analyse(f).gzip, 0);

// npm build: first load = the entry's static import closure + the default language's core texts.
const npmClosure = closure(join(dist, "index.js"), dist);
const npmFirst = npmClosure.reduce((n, i) => n + i.gzip, 0) + analyse(texts(dist, "core", "de-CH")).gzip;
const npmAll = sum(npmJs);
const css = gzipSize(readFileSync(join(dist, "shop-widget.css"), "utf8"));
const languages = Object.fromEntries(
  ["de-CH", "fr-CH", "it-CH", "en-GB"].map((l) => [
    l,
    analyse(texts(dist, "core", l)).gzip + analyse(texts(dist, "checkout", l)).gzip,
  ]),
);

// Script-tag builds (Preact bundled), as shipped: the ESM first load, a whole purchase in one language
// (every step, the later styles, both text namespaces; analytics stays off by default), the classic script.
const shipped = { shipped: true };
const scriptDir = join(dist, "script");
const scriptEntry = join(scriptDir, `shop-widget.${pkg.version}.js`);
const scriptTexts = (namespace, locale) => analyse(texts(scriptDir, namespace, locale), shipped).gzip;
const scriptFirst =
  closure(scriptEntry, scriptDir, shipped).reduce((n, i) => n + i.gzip, 0) + scriptTexts("core", "de-CH");
const otherTexts = /\/texts-(core|checkout)-(fr-CH|it-CH|en-GB)-|\/analytics-/;
const scriptAll = reachable(scriptEntry, shipped);
const scriptJourney = scriptAll.filter((i) => !otherTexts.test(i.file)).reduce((n, i) => n + i.gzip, 0);
const scriptEverything = scriptAll.reduce((n, i) => n + i.gzip, 0);
const iife = analyse(join(scriptDir, `shop-widget.${pkg.version}.iife.js`), shipped).gzip;
const scriptCss = gzipSize(readFileSync(join(scriptDir, `shop-widget.${pkg.version}.css`), "utf8"));

const rows = [
  ["npm: first load (mount, catalogue, core texts, CSS)", npmFirst, BUDGET.npmFirst],
  ["npm: everything (all steps, 4 languages)", npmAll, BUDGET.npmAll],
  ["stylesheet (shop-widget.css)", css, BUDGET.css],
  ...Object.entries(languages).map(([l, n]) => [`texts ${l} (core + checkout)`, n, BUDGET.language]),
  ["script tag ESM: first load, as shipped", scriptFirst, BUDGET.scriptFirst],
  ["script tag ESM: whole purchase (1 language), as shipped", scriptJourney, BUDGET.scriptJourney],
  ["script tag ESM: everything (4 languages, analytics)", scriptEverything, undefined],
  ["script tag classic (IIFE, everything), as shipped", iife, BUDGET.scriptClassic],
  ["script tag stylesheet (optional link)", scriptCss, undefined],
];
console.log(
  `@entrada/shop-widget ${pkg.version}: gzip -9; npm minified again, script tag as shipped (1 KB = 1024 bytes)\n`,
);
let over = 0;
for (const [name, bytes, budget] of rows) {
  const ok = budget === undefined || bytes <= budget;
  if (!ok) over += 1;
  console.log(
    `${ok ? " " : "✗"} ${name.padEnd(58)} ${kb(bytes).padStart(9)}${budget ? `   budget ${kb(budget)} (${bytes} of ${budget} B)` : ""}`,
  );
}
console.log("\nScript-tag first load next to the anchors (their published figures):");
console.log(`  ${"Entrada script tag (ESM, Preact), first load".padEnd(58)} ${kb(scriptFirst)}`);
console.log(`  ${"Entrada script tag (ESM, Preact), whole purchase".padEnd(58)} ${kb(scriptJourney)}`);
console.log(`  ${"Entrada npm (host's React), first load".padEnd(58)} ${kb(npmFirst)}`);
for (const [name, figure] of ANCHORS) console.log(`  ${name.padEnd(58)} ${figure}`);

if (!args.has("--no-timing")) {
  const timing = await measureLanguageSwitch(root);
  console.log("\nLive language switch, texts cached (jsdom, median of", timing.runs, "runs):");
  console.log(`  switch de-CH ⇄ fr-CH re-render     ${timing.switchMs.toFixed(2)} ms`);
  console.log(`  baseline: theme toggle re-render   ${timing.baselineMs.toFixed(2)} ms`);
  console.log(`  ratio                              ${(timing.switchMs / timing.baselineMs).toFixed(2)}×`);
}

if (args.has("--check") && over > 0) {
  console.error(`\n${over} size budget(s) exceeded`);
  process.exit(1);
}
