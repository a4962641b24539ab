import { defineProject } from "vitest/config";

export default defineProject({
  test: {
    name: "release",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
