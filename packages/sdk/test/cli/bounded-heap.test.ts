import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { YOUNG_GENERATION_MB } from "../../src/cli/bounded-heap.ts";

const PROBE = fileURLToPath(new URL("./bounded-heap-probe.ts", import.meta.url));

function run(args: string[], onStdout?: (text: string, child: ReturnType<typeof spawn>) => void) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [PROBE, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
      onStdout?.(stdout, child);
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const reportOf = (stdout: string) => JSON.parse(stdout.split("\n")[0] as string);

describe("runWithBoundedHeap (the BI export CLI's thread)", () => {
  it("runs main in a worker whose young generation is capped, with the arguments and exit code", async () => {
    const r = await run(["3", "--flag"]);
    const report = reportOf(r.stdout);
    expect(report.isMainThread).toBe(false);
    // The bound the export's memory relies on: set by the CLI itself, not by a Node flag of the user's.
    expect(report.resourceLimits.maxYoungGenerationSizeMb).toBe(YOUNG_GENERATION_MB);
    expect(report.argv).toEqual(["3", "--flag"]);
    expect(r.code).toBe(3);
  });

  it("reports an error of main with the command's own code", async () => {
    const r = await run(["fail"]);
    expect(r.stderr).toContain("reported: boom");
    expect(r.code).toBe(9);
  });

  it("forwards Ctrl-C to the worker as SIGINT", async () => {
    let sent = false;
    const r = await run(["wait"], (text, child) => {
      if (!sent && text.includes("\n")) {
        sent = true;
        child.kill("SIGINT");
      }
    });
    expect(reportOf(r.stdout).isMainThread).toBe(false);
    expect(r.code).toBe(130);
  });
});
