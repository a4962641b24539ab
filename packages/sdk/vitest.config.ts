import { defineProject } from "vitest/config";

// `source` first: workspace packages (and this one) resolve to their TypeScript sources.
const conditions = ["source", "import", "module", "default"];

export default defineProject({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    name: "sdk",
    include: ["test/**/*.test.ts"],
    environment: "node",
    typecheck: {
      enabled: true,
      include: ["test/**/*.test-d.ts"],
      tsconfig: "./tsconfig.json",
    },
  },
});
