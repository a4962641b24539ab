// @vitest-environment node
/**
 * The SDK adapter (`@entrada/shop-widget/sdk`) stays out of the widget's first load: no static import chain from
 * the npm entries reaches it, and nothing imports `@entrada/sdk` at run time (the host brings its own client).
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = fileURLToPath(new URL("../src/", import.meta.url));

/** Runtime (non-type) static imports and re-exports of a module; dynamic `import()` is a later chunk. */
function staticImports(file: string): string[] {
  const code = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
  const specifiers: string[] = [];
  for (const m of code.matchAll(/^\s*(?:import|export)\s+(?!type\b)([^;]*?)\s*from\s*["']([^"']+)["']/gm)) {
    const clause = m[1] ?? "";
    // `import { type A, type B } from` is type-only too.
    const names = clause
      .replace(/^[{\s]+|[}\s]+$/g, "")
      .split(",")
      .map((n) => n.trim())
      .filter(Boolean);
    if (clause.startsWith("{") && names.length > 0 && names.every((n) => n.startsWith("type "))) continue;
    specifiers.push(m[2] ?? "");
  }
  for (const m of code.matchAll(/^\s*import\s+["']([^"']+)["']/gm)) specifiers.push(m[1] ?? "");
  return specifiers;
}

function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const spec of staticImports(file)) {
      if (!spec.startsWith(".")) {
        packages.add(spec);
        continue;
      }
      const base = resolve(dirname(file), spec);
      const candidates = [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
      const found = candidates.find((c) => {
        try {
          return readFileSync(c) && /\.tsx?$/.test(c);
        } catch {
          return false;
        }
      });
      if (found) visit(found);
    }
  };
  visit(entry);
  return { files, packages };
}

describe("the SDK adapter entry", () => {
  it.each(["index.ts", "react/index.ts"])("is not in the static import closure of %s", (entry) => {
    const { files, packages } = closure(resolve(SRC, entry));
    expect(files.size).toBeGreaterThan(5);
    expect(files).toContain(resolve(SRC, "core/session-token.ts"));
    expect([...files].filter((f) => /sdk/.test(f))).toEqual([]);
    expect([...packages].filter((p) => p.startsWith("@entrada/sdk"))).toEqual([]);
  });

  it("imports only types from @entrada/sdk", () => {
    const { files, packages } = closure(resolve(SRC, "sdk.ts"));
    expect(files).toContain(resolve(SRC, "core/sdk-shop-api.ts"));
    expect([...packages].filter((p) => p.startsWith("@entrada/sdk"))).toEqual([]);
  });
});
