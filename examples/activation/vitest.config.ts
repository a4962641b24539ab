import { defineProject } from "vitest/config";

// `source` first: the SDK and the mock server resolve to their TypeScript sources.
const conditions = ["source", "import", "module", "node", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "example-activation",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
