import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import globalSetup from "../global-setup.ts";

const widget = fileURLToPath(new URL("../../packages/shop-widget/", import.meta.url));

/**
 * The widget's dev page as `pnpm start` serves it (the mock on a free port), on `port`, after building the
 * script-tag bundles: for the suites that drive a browser without Playwright's test runner (the cross-engine
 * journey, the phone vitals bench). Resolves once it listens; `stop()` ends it.
 */
export async function startDevServer(port: number): Promise<{ origin: string; stop(): void }> {
  globalSetup();
  const origin = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(
    process.execPath,
    [
      "node_modules/vite/bin/vite.js",
      "--config",
      "vite.dev.config.ts",
      "--port",
      String(port),
      "--strictPort",
    ],
    { cwd: widget, env: { ...process.env, ENTRADA_MOCK_PORT: "0" }, stdio: ["ignore", "pipe", "inherit"] },
  );
  await new Promise<void>((resolve, reject) => {
    server.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes(origin)) resolve();
    });
    server.on("exit", (code) => reject(new Error(`the dev server exited (${code})`)));
  });
  return { origin, stop: () => server.kill() };
}
