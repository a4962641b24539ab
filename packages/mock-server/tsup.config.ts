import { defineConfig } from "tsup";

// One build for every entry; workspace packages (@entrada/*) are bundled from source so dist/ is self-contained.
export default defineConfig({
  entry: {
    index: "src/index.ts",
    "msw/index": "src/msw/index.ts",
    "node/index": "src/node/index.ts",
    "browser/index": "src/browser/index.ts",
    "compiler/index": "src/compiler/index.ts",
    cli: "src/node/cli.ts",
  },
  format: ["esm"],
  target: "node20",
  dts: {
    entry: {
      index: "src/index.ts",
      "msw/index": "src/msw/index.ts",
      "node/index": "src/node/index.ts",
      "browser/index": "src/browser/index.ts",
      "compiler/index": "src/compiler/index.ts",
    },
  },
  clean: true,
  sourcemap: true,
  splitting: true,
  // @entrada/docs-server and @entrada/bi-assistant stay imports: optional peers, loaded only when installed.
  noExternal: [/^@entrada\/(?!docs-server|bi-assistant)/],
  esbuildOptions(options) {
    options.conditions = ["source", "import", "module", "default"];
  },
});
