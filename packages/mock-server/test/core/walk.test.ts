/**
 * The architecture's contract (issue 18): one request reads entry → engine → dispatcher → stages in order → handler
 * (with its domain modules) → response, and no call comes back into a file it left. `bench/walk.mjs` traces a real
 * `POST /shop/v1/cart/{cartId}/items` through the node:http entry with V8's coverage and breakpoints; this test
 * fails when a change makes a stage call back into the engine, the handler call back into a stage, or a station of
 * the walk be entered from a second place.
 */
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

interface Walk {
  files: number;
  functionCalls: number;
  order: Array<{ file: string; from: string }>;
  returns: Array<{ file: string; function: string; path: string[] }>;
  reentered: Array<{ file: string; from: string[] }>;
  stagesInOrder: boolean;
  unarmed: number;
}

const script = fileURLToPath(new URL("../../bench/walk.mjs", import.meta.url));

async function walk(): Promise<Walk> {
  const flags = [
    "--conditions=source",
    "--experimental-transform-types",
    "--disable-warning=ExperimentalWarning",
  ];
  // Exit code 1 means the walk is broken: the report says how, and the assertions below name it.
  const run = promisify(execFile)(process.execPath, [...flags, script, "--json"], { timeout: 60_000 });
  const { stdout } = await run.catch((failed: { stdout?: string; stderr?: string }) => {
    if (failed.stdout?.trimStart().startsWith("{")) return { stdout: failed.stdout };
    throw new Error(`bench/walk.mjs failed: ${failed.stderr ?? failed}`);
  });
  return JSON.parse(stdout) as Walk;
}

describe("the walk of one request", () => {
  it("reads entry → engine → dispatcher → stages in order → handler, never coming back into a file", async () => {
    const report = await walk();
    const files = report.order.map((o) => o.file);
    const from = (file: string) => report.order.find((o) => o.file === file)?.from;
    // It did trace the request: the stations are there, each entered by the one before it.
    expect(files[0]).toBe("node/index.ts");
    expect(from("core/engine.ts")).toBe("node/index.ts");
    expect(from("core/pipeline/dispatch.ts")).toBe("core/engine.ts");
    const stages = files.filter((f) => /^core\/pipeline\/(?!exchange|dispatch|index)/.test(f));
    expect(stages.length).toBeGreaterThanOrEqual(10);
    for (const stage of stages) expect(from(stage)).toBe("core/pipeline/dispatch.ts");
    expect(report.stagesInOrder).toBe(true);
    expect(from("core/context.ts")).toBe("core/pipeline/answer.ts");
    expect(from("sections/shop/cart.ts")).toBe("core/pipeline/answer.ts");
    expect(report.unarmed).toBe(0);
    // One visit: no call into a file still on the stack, no station entered from a second place.
    expect(report.returns).toEqual([]);
    expect(report.reentered).toEqual([]);
  });
});
