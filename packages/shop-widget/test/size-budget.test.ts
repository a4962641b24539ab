// @vitest-environment node
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

describe("size budgets", () => {
  it("npm static first load incl. the SDK shop transport ≤ 32 KB, everything ≤ 70 KB, CSS ≤ 8 KB, each language ≤ 4 KB; script tag as shipped: all before the first render ≤ 50 KB, whole purchase ≤ 73.5 KB, classic script ≤ 76 KB (gzip)", () => {
    const root = fileURLToPath(new URL("..", import.meta.url));
    // Builds all three bundles and exits non-zero when a budget is exceeded (see bench/size.mjs).
    const run = () =>
      execFileSync(process.execPath, ["bench/size.mjs", "--check", "--no-timing"], {
        cwd: root,
        encoding: "utf8",
      });
    let output = "";
    try {
      output = run();
    } catch (error) {
      output = String((error as { stdout?: string }).stdout ?? error);
      throw new Error(`size budget exceeded:\n${output}`);
    }
    expect(output).toMatch(/npm: static first load incl\. @entrada\/sdk\/shop/);
    expect(output).toMatch(/npm: first render total/);
    expect(output).toMatch(
      /script tag ESM: first load \(all before the first render\), as shipped .*budget 50\.0 KB/,
    );
    expect(output).not.toMatch(/^✗/m);
  }, 120_000);
});
