import { readFileSync } from "node:fs";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };

const FIRST_LOAD = /[\\/](src|node_modules)[\\/]/;
const LATER =
  /[\\/](steps[\\/](?!EventList)|parts[\\/](JourneyError|HoldCountdown|AssetLink)|react[\\/]EntradaShop|journey-actions|resume-store|http-shop-later|uuid|sdk-shop-api|sdk\.ts|validate|analytics|locales|uqr|useQueries|queriesObserver|i18next)|steps\.css/;

/** Text chunks are named by namespace (`texts-core-de-CH-….js`) so size budgets can tell them apart. */
export const chunkName = (chunk: { facadeModuleId?: string | null }) => {
  const text = /locales[\\/](core|checkout)[\\/]/.exec(chunk.facadeModuleId ?? "");
  return text ? `chunks/texts-${text[1]}-[name]-[hash].js` : "chunks/[name]-[hash].js";
};

/** Everything the first render needs, in one chunk (one request, one gzip stream). */
const firstLoad = (id: string) => FIRST_LOAD.test(id) && !LATER.test(id);
export const FIRST_LOAD_CHUNK = { groups: [{ name: "shop", test: firstLoad }] };

const SDK = /[\\/]sdk[\\/](src|dist)[\\/]/;
const WIDGET_FIRST_LOAD_CHUNK = {
  groups: [{ name: "shop", test: (id: string) => firstLoad(id) && !SDK.test(id) }],
};

export const SOURCE_CONDITIONS = ["source", "browser", "module", "import", "default"];

/** Emits the stylesheet as `shop-widget.css` too, for hosts that link it (`injectStyles: false`). */
export function stylesheet(fileName: string): Plugin {
  return {
    name: "entrada-stylesheet",
    apply: "build",
    generateBundle() {
      const css = ["shop-widget.css", "steps.css"]
        .map((name) => readFileSync(new URL(`./src/styles/${name}`, import.meta.url), "utf8"))
        .join("\n");
      // Plain CSS (no preprocessing), so comment and whitespace removal is all the minifying it needs.
      const minified = css
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/\s+/g, " ")
        .replace(/\s*([{};,>])\s*/g, "$1")
        .replace(/:\s+/g, ":")
        .replace(/;}/g, "}")
        .trim();
      this.emitFile({ type: "asset", fileName, source: `${minified}\n` });
    },
  };
}

/**
 * npm build: ESM, the host's React (external), later steps, i18next and each language in their own chunks.
 * `@entrada/sdk` is external (the host installs it); mode `with-sdk` bundles it, so bench/size.mjs can count
 * the SDK code the widget statically imports, as it ends up in a host's bundle.
 */
export default defineConfig(({ mode }) => ({
  plugins: [react(), stylesheet("shop-widget.css")],
  define: { __ENTRADA_SHOP_VERSION__: JSON.stringify(pkg.version) },
  resolve: { conditions: SOURCE_CONDITIONS },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    minify: true,
    sourcemap: true,
    lib: {
      entry: { index: "src/index.ts", react: "src/react/index.ts", sdk: "src/sdk.ts" },
      formats: ["es"],
    },
    rolldownOptions: {
      external: [
        /^react($|\/)/,
        /^react-dom($|\/)/,
        ...(mode === "with-sdk" ? [] : [/^@entrada\/sdk($|\/)/]),
      ],
      output: {
        chunkFileNames: chunkName,
        // Everything the first render needs in one chunk (one request, one gzip stream); the later steps,
        // their texts and helpers stay in their own lazily loaded chunks.
        // With the SDK bundled, its modules are left to the bundler's own splitting (as in a host's bundle):
        // only what the first chunk statically imports counts as first load.
        codeSplitting: mode === "with-sdk" ? WIDGET_FIRST_LOAD_CHUNK : FIRST_LOAD_CHUNK,
      },
    },
  },
}));
