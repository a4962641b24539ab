import { defineConfig } from "@playwright/test";
import { chromiumPath } from "../scripts/chromium-path.mjs";

const port = Number(process.env.E2E_PORT ?? 5174);

/**
 * Browser tests of the shop widget's dev page (a host page with the widget, its backend endpoint and the
 * mock API over HTTP, hostile global CSS and a strict nonce CSP), driven in Debian's Chromium (Playwright's
 * own browser download is not used). Every journey runs twice: on the npm build (the sources with the page's
 * React) and on the script-tag build as shipped (dist/script, Preact bundled; built by global-setup.ts).
 * The screenshot baseline (tests/__screenshots__) is compared on the npm build.
 */
export default defineConfig({
  testDir: "./tests",
  globalSetup: "./global-setup.ts",
  snapshotPathTemplate: "{testDir}/__screenshots__/{arg}{ext}",
  projects: [
    { name: "npm", metadata: { build: "npm" } },
    // The script-tag build: the same journeys; the classic-script test builds and loads its own file.
    {
      name: "script",
      metadata: { build: "script" },
      // mock-csp.spec.ts tests the mock's browser build and reference.spec.ts the docs server, not the widget:
      // once is enough.
      testIgnore: [
        /screenshots\.spec\.ts/,
        /script-tag\.spec\.ts/,
        /mock-csp\.spec\.ts/,
        /reference\.spec\.ts/,
        /drift\.spec\.ts/,
      ],
    },
  ],
  timeout: 60_000,
  expect: {
    timeout: 10_000,
    // A small tolerance for anti-aliasing; a moved block, a changed colour or a new line fails.
    toHaveScreenshot: { maxDiffPixelRatio: 0.01, threshold: 0.2, animations: "disabled", caret: "hide" },
  },
  fullyParallel: false,
  // Two spec files at a time: each page has its own mock session, so files do not share state.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    locale: "en-GB",
    trace: "retain-on-failure",
    launchOptions: {
      // CHROMIUM_PATH if it exists, else Debian's (which `pnpm test` installs when missing).
      executablePath: chromiumPath() ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: {
    // The dev page exactly as `pnpm start` serves it, on its own ports (the mock on a free one).
    command: `node node_modules/vite/bin/vite.js --config vite.dev.config.ts --port ${port} --strictPort`,
    cwd: "../packages/shop-widget",
    url: `http://127.0.0.1:${port}/`,
    env: { ENTRADA_MOCK_PORT: "0" },
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
  },
});
