/**
 * No import circles: `pnpm lint` (part of `pnpm test`) runs Biome's `noImportCycles` over every package, type-only
 * imports counted too (`biome.json`). These tests prove the check bites: a new circle written into this
 * package — even one made only of `import type` — fails the linter with the repository's own configuration, and the
 * package as it is has none.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../../", import.meta.url));
const pkg = fileURLToPath(new URL("../../", import.meta.url));
const biome = join(root, "node_modules/.bin/biome");

/** Runs the repository's lint on `paths` (relative to the root); resolves with its exit code and output. */
async function lint(...paths: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(biome, ["lint", "--max-diagnostics=50", ...paths], { cwd: root });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? 1, output: `${e.stdout ?? ""}${e.stderr ?? ""}` };
  }
}

// A scratch folder inside the package, so the package's lint rules apply to it; removed afterwards.
const scratch = mkdtempSync(join(pkg, "test/.cycle-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A folder `name` in the scratch space with a.ts (a type import of ./b.ts) and b.ts as given. */
function twoFiles(name: string, b: string): string {
  const dir = join(scratch, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "a.ts"), 'import type { B } from "./b.ts";\n\nexport interface A {\n  b: B;\n}\n');
  writeFileSync(join(dir, "b.ts"), b);
  return dir;
}

describe("import circles fail the lint", () => {
  it("a circle of type-only imports in the mock is an error", async () => {
    const dir = twoFiles("types", 'import type { A } from "./a.ts";\n\nexport interface B {\n  a?: A;\n}\n');
    const result = await lint(relative(root, dir));
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("lint/suspicious/noImportCycles");
  });

  it("the same files without the circle pass", async () => {
    const dir = twoFiles("line", "export interface B {\n  n: number;\n}\n");
    const result = await lint(relative(root, dir));
    expect(result.output).not.toContain("noImportCycles");
    expect(result.code).toBe(0);
  });

  it("the mock's sources have none, type imports included", async () => {
    const result = await lint(relative(root, join(pkg, "src")));
    expect(result.output).not.toContain("noImportCycles");
  });
});
