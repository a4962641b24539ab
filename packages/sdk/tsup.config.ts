import { defineConfig } from "tsup";

export default defineConfig({
  entry: {
    index: "src/index.ts",
    webhooks: "src/webhooks/index.ts",
    bi: "src/bi/index.ts",
    raw: "src/raw.ts",
    shop: "src/shop.ts",
    survey: "src/survey.ts",
    conversions: "src/conversions/index.ts",
    logger: "src/logger.ts",
    otel: "src/otel.ts",
    sqlite: "src/stores/sqlite.ts",
    postgres: "src/stores/postgres.ts",
    "cli/bi-export": "src/cli/bi-export.ts",
  },
  format: ["esm", "cjs"],
  // Sources import the contract's types from the generated copy (src/generated/schema.ts), never from the private
  // `@entrada/openapi` package, so the declarations are self-contained (the pack test checks it).
  dts: true,
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
  // Node built-ins keep their `node:` prefix: `node:sqlite` exists only under that name (tsup would write "sqlite").
  external: ["openapi-fetch", "@opentelemetry/api", /^node:/],
  removeNodeProtocol: false,
});
