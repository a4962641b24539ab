import { defineProject } from "vitest/config";

// `source` first: workspace packages (and this one) resolve to their TypeScript sources.
const conditions = ["source", "import", "module", "node", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "mock-server",
    include: ["test/**/*.test.ts"],
    environment: "node",
    testTimeout: 30_000,
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    hookTimeout: 30_000,
  },
});
