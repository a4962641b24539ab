// Size measurement helpers: minify each emitted chunk as a host's bundler would, then gzip (level 9).
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

/** Minified + gzipped size of a JS file, and its static and dynamic imports (relative specifiers). */
export function analyse(file) {
  const code = readFileSync(file, "utf8");
  const { code: min } = minifySync(file, code, { compress: true, mangle: true });
  const staticImports = [
    ...code.matchAll(/(?:^|[;\n}])\s*(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'](\.[^"']+)["']/g),
  ].map((m) => m[1]);
  const dynamicImports = [...code.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)].map((m) => m[1]);
  return { file, gzip: gzipSize(min), raw: code.length, staticImports, dynamicImports };
}

/** The static import closure of `entry` (what loads before the first render). */
export function closure(entry, root) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file)) return;
    const info = analyse(file);
    seen.set(file, info);
    for (const spec of info.staticImports) visit(join(file, "..", spec));
  };
  visit(entry);
  return [...seen.values()].map((i) => ({ ...i, name: relative(root, i.file) }));
}

export const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
