import { defineProject } from "vitest/config";

const conditions = ["source", "import", "module", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "openapi",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // The freshness test bundles and lints the contract with the Redocly CLI (a child process).
    testTimeout: 120_000,
  },
});
