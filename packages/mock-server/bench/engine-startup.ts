/**
 * Engine construction time (`createEntradaMock`), alternating in one process: without the run-time schema compiler
 * (the browser build), with it injected (Node), and optionally an earlier revision's sources as the baseline.
 *   pnpm --filter @entrada/mock-server bench:startup [git-rev]      e.g. bench:startup a7f5af4
 */
import { execSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

type Create = (options: { rateLimit: false; schemaCompiler?: unknown }) => unknown;
const rev = process.argv[2];
const oldDir = fileURLToPath(new URL("../.bench-old/", import.meta.url));
let old: Create | null = null;
if (rev) {
  // The revision's sources next to the current ones, so they resolve the same dependencies.
  rmSync(oldDir, { recursive: true, force: true });
  mkdirSync(oldDir);
  execSync(`git archive ${rev} src | tar -x -C ${JSON.stringify(oldDir)}`, {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
  });
  old = (await import(`${oldDir}src/index.ts`)).createEntradaMock as Create;
}
try {
  const { createEntradaMock } = await import("../src/index.ts");
  const { ajvSchemaCompiler } = await import("../src/compiler/ajv.ts");
  const runs: Record<string, number[]> = { browser: [], node: [], ...(old ? { [rev as string]: [] } : {}) };
  const time = (name: string, create: () => unknown) => {
    const started = performance.now();
    create();
    runs[name]?.push(performance.now() - started);
  };
  for (let i = 0; i < 30; i++) {
    if (old) time(rev as string, () => (old as Create)({ rateLimit: false }));
    time("browser", () => createEntradaMock({ rateLimit: false }));
    time("node", () => createEntradaMock({ rateLimit: false, schemaCompiler: ajvSchemaCompiler }));
  }
  // Median of runs 6–30 (the first ones warm the JIT and the module graph).
  const median = (a: number[]) => {
    const sorted = a.slice(5).sort((x, y) => x - y);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  const medians = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, Number(median(v).toFixed(2))]));
  console.log("median construction ms:", medians);
  if (old) console.log(`${rev} / node: ${((medians[rev as string] ?? 0) / (medians.node ?? 1)).toFixed(1)}×`);
} finally {
  if (rev) rmSync(oldDir, { recursive: true, force: true });
}
