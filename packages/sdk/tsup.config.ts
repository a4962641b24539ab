import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    webhooks: "src/webhooks/index.ts",
    bi: "src/bi/index.ts",
    "cli/bi-export": "src/cli/bi-export.ts",
  },
  format: ["esm", "cjs"],
  // Declarations must not import the private contract package: map it to the generated copy, which is inlined.
  dts: {
    compilerOptions: {
      baseUrl: ".",
      paths: { "@entrada/openapi/schema": ["./src/generated/schema.ts"] },
    },
  },
  // Keep workspace imports on their built files, not their TypeScript sources.
  esbuildOptions(options) {
    options.conditions = ["import", "module", "default"];
  },
  target: "es2022",
  platform: "neutral",
  splitting: true,
  sourcemap: true,
  clean: true,
  treeshake: true,
  external: ["openapi-fetch"],
});
