import { defineConfig } from "tsup";

// The contract (@entrada/openapi) is bundled from source so dist/ is self-contained; libraries stay dependencies.
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
  dts: true,
  clean: true,
  sourcemap: true,
  noExternal: [/^@entrada\//],
  esbuildOptions(options) {
    options.conditions = ["source", "import", "module", "default"];
  },
});
