import { defineConfig } from "vitest/config";

// One vitest run across the workspace: each package contributes a project.
export default defineConfig({
  test: {
    projects: ["packages/*/vitest.config.ts", "examples/*/vitest.config.ts"],
  },
});
