import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 5174);

/**
 * Browser tests of the shop widget's dev page (a host page with the widget, its backend endpoint and the
 * mock API over HTTP), driven in Debian's Chromium (Playwright's own browser download is not used).
 */
export default defineConfig({
  testDir: "./tests",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    locale: "en-GB",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
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
