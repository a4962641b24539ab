import { defineConfig } from "tsup";

// The SDK is bundled from source so dist/ is self-contained; libraries stay dependencies.
export default defineConfig({
  entry: { index: "src/index.ts", cli: "src/cli.ts" },
  format: ["esm"],
  target: "node20",
  dts: { entry: { index: "src/index.ts" } },
  clean: true,
  sourcemap: true,
  noExternal: [/^@entrada\//],
  esbuildOptions(options) {
    options.conditions = ["source", "import", "module", "default"];
  },
});
