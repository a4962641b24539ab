import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };
import { chunkName, loadTimeChunks, SOURCE_CONDITIONS, stylesheet } from "./vite.config.ts";

/**
 * Rolldown puts its namespace-object helper (needed for the lazily loaded renderer and steps) in a chunk of its own
 * that the shop chunk imports: one more round trip after the shop chunk before the shop can render. Each chunk that
 * imports it gets its own copy instead (≈ 150 bytes), as a hoisted function under the imported name, created on
 * first call; the import is blanked to spaces of the same length, so the source maps still line up.
 */
function inlineRuntimeChunk(): Plugin {
  return {
    name: "entrada-inline-runtime-chunk",
    apply: "build",
    generateBundle(_options, bundle) {
      const runtime = Object.values(bundle).find(
        (file) => file.type === "chunk" && /(^|\/)rolldown-runtime-[\w-]+\.js$/.test(file.fileName),
      );
      if (runtime?.type !== "chunk") return;
      const shape = /^([\s\S]*?)export\s*\{([^}]*)\};?\s*(\/\/# sourceMappingURL=\S*\s*)?$/.exec(
        runtime.code,
      );
      if (shape === null) throw new Error(`inlineRuntimeChunk: unexpected ${runtime.fileName}`);
      const body = shape[1] ?? "";
      const exported = new Map(
        (shape[2] ?? "").split(",").map((spec) => {
          const [local = "", name = local] = spec.trim().split(/\s+as\s+/);
          return [name, local] as const;
        }),
      );
      const base = runtime.fileName.split("/").pop() ?? "";
      for (const file of Object.values(bundle)) {
        if (file.type !== "chunk" || file === runtime) continue;
        const imports = new RegExp(
          `import\\s*\\{([^}]*)\\}\\s*from\\s*["'\`]\\./${base.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}["'\`];?`,
        );
        const found = imports.exec(file.code);
        if (found === null) continue;
        const helpers = (found[1] ?? "").split(",").map((spec) => {
          const [name = "", local = name] = spec.trim().split(/\s+as\s+/);
          const inner = exported.get(name);
          if (inner === undefined) throw new Error(`inlineRuntimeChunk: ${base} exports no ${name}`);
          return `function ${local}(...a){return(${local}.f??=(()=>{${body};return ${inner}})())(...a)}`;
        });
        const code = file.code.replace(found[0], " ".repeat(found[0].length));
        const map = /\n\/\/# sourceMappingURL=\S*\s*$/.exec(code);
        file.code = map
          ? `${code.slice(0, map.index)}\n${helpers.join("\n")}${code.slice(map.index)}`
          : `${code}\n${helpers.join("\n")}\n`;
        file.imports = file.imports.filter((name) => name !== runtime.fileName);
      }
      delete bundle[runtime.fileName];
      delete bundle[`${runtime.fileName}.map`];
    },
  };
}

/**
 * Script-tag build, Preact (core and hooks through `src/preact/`) bundled in place of React, versioned file names
 * (`dist/script/`):
 * - `--mode esm`  → `shop-widget.<version>.js` (ES module; the later steps and languages load on demand),
 * - `--mode iife` → `shop-widget.<version>.iife.js` (classic script exposing `window.EntradaShop.mount`),
 * plus `shop-widget.<version>.css` for pages that link the stylesheet.
 */
export default defineConfig(({ mode }) => {
  const iife = mode === "iife";
  // The entry starts the reads and loads `ui/render.ts` (the `shop` chunk) at once.
  const chunks = loadTimeChunks("./src/script.ts", undefined, "./src/ui/render.ts");
  return {
    plugins: [
      react(),
      ...(iife ? [] : [stylesheet(`shop-widget.${pkg.version}.css`), chunks.plugin, inlineRuntimeChunk()]),
    ],
    define: {
      __ENTRADA_SHOP_VERSION__: JSON.stringify(pkg.version),
      "process.env.NODE_ENV": JSON.stringify("production"),
    },
    resolve: {
      conditions: SOURCE_CONDITIONS,
      // Preact rather than React 18 (45.6 KB gzip) or 19 (69 KB): this build carries its own renderer, and the
      // whole browser suite runs on it (e2e project `script`). Not through preact/compat (2.0 KB) but through
      // src/preact/ (0.4 KB): the React API the widget and @tanstack/react-query use. The npm build keeps the
      // host's React 18 or 19.
      alias: [
        {
          find: /^react-dom\/client$/,
          replacement: fileURLToPath(new URL("./src/preact/react-dom-client.ts", import.meta.url)),
        },
        { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
        { find: /^react\/jsx-dev-runtime$/, replacement: "preact/jsx-runtime" },
        { find: /^react$/, replacement: fileURLToPath(new URL("./src/preact/react.ts", import.meta.url)) },
      ],
    },
    build: {
      outDir: "dist/script",
      emptyOutDir: !iife,
      // Private class fields and static blocks as written (@tanstack/query-core uses them): downlevelled to
      // es2020 they became WeakMap helpers, 1.7 KB gzip more. es2022 is within Vite's default browser baseline
      // (Baseline widely available: Chrome/Edge 111, Firefox 114, Safari 16.4).
      target: "es2022",
      minify: true,
      sourcemap: true,
      lib: {
        entry: iife ? "src/script-classic.ts" : "src/script.ts",
        name: "EntradaShop",
        formats: [iife ? "iife" : "es"],
        fileName: () => (iife ? `shop-widget.${pkg.version}.iife.js` : `shop-widget.${pkg.version}.js`),
      },
      rolldownOptions: {
        // The `later` chunk takes captured modules without their dependencies, which needs this.
        preserveEntrySignatures: "allow-extension",
        output: iife
          ? { codeSplitting: false, comments: { annotation: false } }
          : // Library mode keeps whitespace in ES output (for a host's bundler); a script tag is shipped as
            // is, so it is minified fully here.
            // `/* @__PURE__ */` annotations only help a bundler, and nobody bundles a script tag again.
            {
              chunkFileNames: chunkName,
              codeSplitting: chunks.codeSplitting,
              minify: true,
              comments: { annotation: false },
            },
      },
    },
  };
});
