// Size measurement helpers: gzip (level 9) of each emitted chunk, either as shipped (a script tag: the bytes a
// browser downloads from a CDN) or minified again first (the npm build, as a host's bundler would ship it).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { minifySync } from "vite";

export function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

export function gzipSize(text) {
  return gzipSync(Buffer.from(text), { level: 9 }).length;
}

/**
 * Gzipped size of a JS file (minified again first unless `shipped`), and its static and dynamic imports
 * (relative specifiers).
 */
export function analyse(file, { shipped = false } = {}) {
  const code = readFileSync(file, "utf8");
  const min = shipped ? code : minifySync(file, code, { compress: true, mangle: true }).code;
  // Quotes or backticks: a minifier may turn specifiers into template literals.
  const staticImports = [
    ...code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'`](\.[^"'`]+)["'`]/g),
  ].map((m) => m[1]);
  const dynamicImports = [...code.matchAll(/import\(\s*["'`](\.[^"'`]+)["'`]\s*\)/g)].map((m) => m[1]);
  return { file, gzip: gzipSize(min), raw: code.length, staticImports, dynamicImports };
}

/** The static import closure of `entry` (what loads before the first render). */
export function closure(entry, root, options = {}) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file)) return;
    const info = analyse(file, options);
    seen.set(file, info);
    for (const spec of info.staticImports) visit(join(file, "..", spec));
  };
  visit(entry);
  return [...seen.values()].map((i) => ({ ...i, name: relative(root, i.file) }));
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** Every chunk reachable from `entry` through static and dynamic imports (a whole journey). */
export function reachable(entry, options = {}) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file)) return;
    const info = analyse(file, options);
    seen.set(file, info);
    for (const spec of [...info.staticImports, ...info.dynamicImports]) visit(join(file, "..", spec));
  };
  visit(entry);
  return [...seen.values()];
}
