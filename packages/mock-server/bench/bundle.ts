/**
 * Bundles an entry of this package the way a user's app would (Vite, production, browser conditions, minified)
 * and returns the code. Used by the browser-build test (no Ajv compiler, no eval) and by `bench:browser-size`.
 */
import { fileURLToPath } from "node:url";
import { build, type Rolldown } from "vite";

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const ENTRY_ID = "\0entrada-app-entry";

export interface Bundle {
  /** Every emitted chunk's code, concatenated. */
  code: string;
  /** Bytes of the emitted chunks. */
  bytes: number;
  chunks: number;
}

/**
 * Bundles `app` (module source that imports from `entry`, an absolute path) as an app's single page would be.
 * @example await bundleApp("src/browser/index.ts", (e) => `import { startBrowserMock } from "${e}"; startBrowserMock({ baseUrl: "/api" });`)
 */
export async function bundleApp(entry: string, app: (entryPath: string) => string): Promise<Bundle> {
  const entryPath = fileURLToPath(new URL(entry, `file://${ROOT}`));
  const result = await build({
    configFile: false,
    logLevel: "silent",
    root: ROOT,
    mode: "production",
    // A browser app: `source` resolves the workspace packages to their sources (as the repo's own builds do).
    resolve: { conditions: ["source", "browser", "module", "import", "default"] },
    plugins: [
      {
        name: "entrada-app-entry",
        resolveId: (id: string) => (id === ENTRY_ID ? id : null),
        load: (id: string) => (id === ENTRY_ID ? app(entryPath) : null),
      },
    ],
    build: { write: false, minify: true, modulePreload: false, rolldownOptions: { input: ENTRY_ID } },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  let code = "";
  let chunks = 0;
  for (const output of outputs)
    for (const item of output.output)
      if (item.type === "chunk") {
        code += item.code;
        chunks++;
      }
  return { code, bytes: Buffer.byteLength(code), chunks };
}

/** A page that starts the browser mock (what `bench:browser-size` measures). */
export const browserApp = (entry: string) =>
  `import { startBrowserMock } from ${JSON.stringify(entry)};\n` +
  `startBrowserMock({ baseUrl: location.origin + "/api" }).then((mock) => { globalThis.entradaMock = mock; });\n`;

/**
 * The same page with Ajv's run-time compiler passed in (`schemaCompiler`, which the browser entry's types leave
 * out): what the browser build carried before the compiler became injectable. `compiler` is the compiler entry.
 */
export const browserAppWithCompiler = (entry: string, compiler: string) =>
  `import { startBrowserMock } from ${JSON.stringify(entry)};\n` +
  `import { ajvSchemaCompiler } from ${JSON.stringify(compiler)};\n` +
  `startBrowserMock({ baseUrl: location.origin + "/api", schemaCompiler: ajvSchemaCompiler }).then((mock) => { globalThis.entradaMock = mock; });\n`;
