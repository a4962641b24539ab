import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Builds the script-tag bundles (ES module and classic script, dist/script) before the browser tests, so the
 * `script` project never runs against a stale or missing build.
 */
export default function globalSetup() {
  const widget = fileURLToPath(new URL("../packages/shop-widget/", import.meta.url));
  for (const mode of ["esm", "iife"]) {
    execFileSync(
      process.execPath,
      [
        "node_modules/vite/bin/vite.js",
        "build",
        "--config",
        "vite.script.config.ts",
        "--mode",
        mode,
        "--logLevel",
        "error",
      ],
      { cwd: widget, stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } },
    );
  }
}
