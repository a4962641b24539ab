import { defineProject } from "vitest/config";

// `source` first: the SDK and the mock server resolve to their TypeScript sources. No "import": vitest hands these
// to Node as --conditions, which would then apply to require() inside pg too (pg-pool's ES module instead of its
// CommonJS one); Node and vite add "import" and "require" by the kind of import themselves.
const conditions = ["source", "module", "node", "default"];

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
