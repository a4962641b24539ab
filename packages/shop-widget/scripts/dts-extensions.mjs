#!/usr/bin/env node
// After `tsc -p tsconfig.build.json`: the widget's sources import relative modules without an extension (Vite
// resolves them), and tsc copies the specifiers into the declarations as they are. A consumer type-checking with
// `moduleResolution: node16`/`nodenext` cannot follow `./config` from an ES module, so every relative specifier in
// dist/types gets the extension Node resolves: `./config` → `./config.js`, `./core` → `./core/index.js`.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const typesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/types");
const SPECIFIER = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(["'])(\.\.?\/[^"']*)\2/g;

/** The specifier with the extension Node resolves, for a declaration file in `dir`. */
export function withExtension(dir, specifier) {
  if (/\.(js|mjs|cjs|json|css)$/.test(specifier)) return specifier;
  const target = path.resolve(dir, specifier);
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`;
  if (existsSync(path.join(target, "index.d.ts"))) return `${specifier.replace(/\/$/, "")}/index.js`;
  throw new Error(`${specifier} (from ${dir}) matches no declaration file`);
}

function walk(dir) {
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) walk(file);
    else if (name.endsWith(".d.ts")) {
      const text = readFileSync(file, "utf8");
      const next = text.replace(
        SPECIFIER,
        (_, lead, quote, specifier) =>
          `${lead}${quote}${withExtension(path.dirname(file), specifier)}${quote}`,
      );
      if (next !== text) writeFileSync(file, next);
    }
  }
}

walk(typesDir);
