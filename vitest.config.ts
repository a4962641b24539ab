import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One vitest run across the workspace: each package contributes a project.
export default defineConfig({
  test: {
    // Vitest keeps a core free (cores - 1); on CI's two cores that is one file at a time, while most test files
    // wait on child processes and sockets rather than the CPU. Two at least.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ["packages/*/vitest.config.ts", "examples/*/vitest.config.ts"],
  },
});
