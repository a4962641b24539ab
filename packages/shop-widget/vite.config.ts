import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import pkg from "./package.json" with { type: "json" };

/** Text chunks are named by namespace (`texts-core-de-CH-….js`) so size budgets can tell them apart. */
export const chunkName = (chunk: { facadeModuleId?: string | null }) => {
  const text = /locales[\\/](core|checkout)[\\/]/.exec(chunk.facadeModuleId ?? "");
  return text ? `chunks/texts-${text[1]}-[name]-[hash].js` : "chunks/[name]-[hash].js";
};

/**
 * Modules the first screen reaches only through a package's barrel (`@tanstack/react-query` re-exports
 * `useQueries` and `useMutation`), or that the bundler's chunk merging would otherwise move into the first chunk although only
 * a later step imports them (the SDK's survey validation). The size bench (bench/size.mjs) fails if one of
 * them is needed by the first screen after all (the first chunk then imports the later one).
 */
const LATER_ONLY =
  /[\\/](useQueries|queriesObserver|useSuspenseQueries|useMutation|mutationObserver)\.js$|[\\/]sdk[\\/](src|dist)[\\/]survey\.[jt]s$/;

/**
 * The lazily loaded steps of a purchase up to the payment, and the journey's actions: whoever opens an event
 * usually goes on, so they load together with the first of them (one request and one gzip stream: a whole
 * purchase 1.8 KB gzip lighter than one chunk per step, the event step 1.7 KB heavier).
 */
const CHECKOUT =
  /[\\/]ui[\\/](steps[\\/](EventStep|CartStep|DetailsStep|PaymentStep)\.tsx|journey-actions\.ts)$/;

/**
 * Chunks by load time, from the module graph rather than a list of file names:
 * - `shop`: the static import closure of `entry` — everything the first screen needs, one request and one
 *   gzip stream;
 * - `checkout`: the lazily loaded modules only the CHECKOUT steps use (they load together);
 * - `later`: the other modules two or more lazily loaded chunks share (the cart lines, order summary, hold
 *   timer… that the confirmation shows too), fetched with the first later step;
 * - every other module stays in the lazy chunk that imports it (the confirmation and its QR encoder,
 *   i18next, each language's texts).
 * `exclude` keeps modules out of `shop` (the npm build's size figure leaves the SDK to the host's bundler).
 */
export function loadTimeChunks(entryPath: string, exclude?: RegExp, renderPath?: string) {
  // The entry by its absolute path: a suffix such as `/src/index.ts` would also match the SDK's index.
  const entry = fileURLToPath(new URL(entryPath, import.meta.url));
  const renderer = renderPath === undefined ? undefined : fileURLToPath(new URL(renderPath, import.meta.url));
  const first = new Set<string>();
  const rendering = new Set<string>();
  const checkout = new Set<string>();
  const shared = new Set<string>();
  const plugin: Plugin = {
    name: "entrada-load-time-chunks",
    apply: "build",
    buildStart() {
      first.clear();
      rendering.clear();
      checkout.clear();
      shared.clear();
    },
    buildEnd() {
      const imports = (id: string) => this.getModuleInfo(id)?.importedIds ?? [];
      const entryId = [...this.getModuleIds()].find((id) => id === entry);
      if (entryId === undefined) throw new Error(`loadTimeChunks: no module ${entry}`);
      const visit = (id: string) => {
        if (first.has(id)) return;
        first.add(id);
        for (const next of imports(id)) visit(next);
      };
      visit(entryId);
      // The renderer the entry loads at once (script tag): first load too, in its own chunk beside the entry.
      const visitRenderer = (id: string) => {
        if (first.has(id) || rendering.has(id)) return;
        rendering.add(id);
        for (const next of imports(id)) visitRenderer(next);
      };
      if (renderer !== undefined) visitRenderer(renderer);
      // Which lazily loaded chunks (dynamic-import targets) reach each later module through static imports.
      const lazy = new Set(
        [...this.getModuleIds()].flatMap((id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? []),
      );
      const reachedFrom = new Map<string, Set<string>>();
      for (const root of lazy) {
        if (first.has(root) || rendering.has(root)) continue;
        const seen = new Set<string>();
        const walk = (id: string) => {
          if (seen.has(id) || first.has(id) || rendering.has(id)) return;
          seen.add(id);
          const from = reachedFrom.get(id) ?? new Set<string>();
          reachedFrom.set(id, from.add(root));
          for (const next of imports(id)) walk(next);
        };
        walk(root);
      }
      for (const [id, from] of reachedFrom) {
        if ([...from].every((root) => CHECKOUT.test(root))) checkout.add(id);
        else if (from.size > 1 && !lazy.has(id)) shared.add(id);
      }
    },
  };
  const codeSplitting = {
    groups: [
      {
        name: "checkout",
        priority: 3,
        includeDependenciesRecursively: false,
        test: (id: string) => checkout.has(id),
      },
      {
        name: "later",
        priority: 2,
        // Only the captured modules themselves: their dependencies are mostly in the first chunk already.
        includeDependenciesRecursively: false,
        test: (id: string) => shared.has(id) || LATER_ONLY.test(id),
      },
      {
        name: "shop",
        // The modules the entry imports stay in it even when the renderer imports them too.
        includeDependenciesRecursively: renderer === undefined,
        // With a renderer, the entry's closure stays in the entry file (no second request before `mount` runs).
        // Without, the entry module itself stays in its entry chunk, which then exports exactly the public API.
        test: (id: string) =>
          (renderer === undefined ? first.has(id) && id !== entry : rendering.has(id)) &&
          !LATER_ONLY.test(id) &&
          !exclude?.test(id),
      },
    ],
  };
  return { plugin, codeSplitting };
}

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
const SDK = /[\\/]sdk[\\/](src|dist)[\\/]/;

export default defineConfig(({ mode }) => {
  // With the SDK bundled, its modules are left to the bundler's own splitting (as in a host's bundle): only
  // what the first chunk statically imports counts as first load.
  const chunks = loadTimeChunks("./src/index.ts", mode === "with-sdk" ? SDK : undefined);
  return {
    plugins: [react(), stylesheet("shop-widget.css"), chunks.plugin],
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
        // The `later` chunk takes captured modules without their dependencies, which needs this.
        preserveEntrySignatures: "allow-extension",
        external: [
          /^react($|\/)/,
          /^react-dom($|\/)/,
          ...(mode === "with-sdk" ? [] : [/^@entrada\/sdk($|\/)/]),
        ],
        output: {
          chunkFileNames: chunkName,
          codeSplitting: chunks.codeSplitting,
        },
      },
    },
  };
});
