import { defineProject } from "vitest/config";

// `source` first: workspace packages (and this one) resolve to their TypeScript sources. No "import": vitest hands
// these to Node as --conditions, which then also apply to require() inside CommonJS packages (pg's require of
// pg-pool would get its ES module); Node and vite add "import" and "require" by the kind of import themselves.
const conditions = ["source", "module", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "sdk",
    include: ["test/**/*.test.ts"],
    environment: "node",
    // Tests that spawn the CLI or start the mock take seconds on a loaded 2-core machine (as in mock-server's).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
