import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import pkg from "./package.json" with { type: "json" };
import { chunkName, FIRST_LOAD_CHUNK, SOURCE_CONDITIONS, stylesheet } from "./vite.config.ts";

/**
 * Script-tag build, React 18 bundled, versioned file names (`dist/script/`):
 * - `--mode esm`  → `shop-widget.<version>.js` (ES module; the later steps and languages load on demand),
 * - `--mode iife` → `shop-widget.<version>.iife.js` (classic script exposing `window.EntradaShop.mount`),
 * plus `shop-widget.<version>.css` for pages that link the stylesheet.
 */
export default defineConfig(({ mode }) => {
  const iife = mode === "iife";
  return {
    plugins: [react(), ...(iife ? [] : [stylesheet(`shop-widget.${pkg.version}.css`)])],
    define: {
      __ENTRADA_SHOP_VERSION__: JSON.stringify(pkg.version),
      "process.env.NODE_ENV": JSON.stringify("production"),
    },
    resolve: {
      conditions: SOURCE_CONDITIONS,
      // React 18 (45.6 KB gzip) rather than 19 (69 KB): the widget supports both, and this build carries its own.
      alias: [
        { find: /^react$/, replacement: "react-18" },
        { find: /^react\/(.*)$/, replacement: "react-18/$1" },
        { find: /^react-dom$/, replacement: "react-dom-18" },
        { find: /^react-dom\/(.*)$/, replacement: "react-dom-18/$1" },
      ],
    },
    build: {
      outDir: "dist/script",
      emptyOutDir: !iife,
      target: "es2020",
      minify: true,
      sourcemap: true,
      lib: {
        entry: "src/script.ts",
        name: "EntradaShop",
        formats: [iife ? "iife" : "es"],
        fileName: () => (iife ? `shop-widget.${pkg.version}.iife.js` : `shop-widget.${pkg.version}.js`),
      },
      rolldownOptions: {
        output: iife
          ? { codeSplitting: false }
          : { chunkFileNames: chunkName, codeSplitting: FIRST_LOAD_CHUNK },
      },
    },
  };
});
