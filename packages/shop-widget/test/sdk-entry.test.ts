// @vitest-environment node
/**
 * The widget's transport is the SDK's: the npm entries reach `@entrada/sdk/shop` (the lean shop client) and never
 * the full `@entrada/sdk` (client credentials, every section), so token renewal, idempotency, retries and problem
 * parsing are the SDK's code while the first load stays small. The adapter entry (`@entrada/shop-widget/sdk`)
 * takes a host's own SDK client.
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

describe("the widget's transport", () => {
  it.each(["index.ts", "react/index.ts"])("is the SDK's lean shop entry in the closure of %s", (entry) => {
    const { files, packages } = closure(resolve(SRC, entry));
    expect(files.size).toBeGreaterThan(5);
    expect(files).toContain(resolve(SRC, "core/default-shop-api.ts"));
    expect([...packages].filter((p) => p.startsWith("@entrada/sdk"))).toEqual(["@entrada/sdk/shop"]);
  });

  it("has no hand-written HTTP of its own: no module of the widget sets auth, key or language headers", () => {
    const { files } = closure(resolve(SRC, "index.ts"));
    const headers = /["'](authorization|idempotency-key|accept-language)["']|Bearer \$\{/i;
    expect([...files].filter((f) => headers.test(readFileSync(f, "utf8")))).toEqual([]);
  });

  it("the adapter entry imports only types from @entrada/sdk (the host brings its client)", () => {
    const { files, packages } = closure(resolve(SRC, "sdk.ts"));
    expect(files).toContain(resolve(SRC, "core/sdk-shop-api.ts"));
    expect([...packages].filter((p) => p.startsWith("@entrada/sdk") && p !== "@entrada/sdk/shop")).toEqual(
      [],
    );
  });
});
