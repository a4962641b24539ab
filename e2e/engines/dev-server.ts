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
    {
      cwd: widget,
      // Vite colours the port in its banner whenever CI is set; NO_COLOR keeps the banner matchable.
      env: { ...process.env, ENTRADA_MOCK_PORT: "0", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  let banner = "";
  await new Promise<void>((resolve, reject) => {
    const giveUp = setTimeout(() => {
      server.kill();
      reject(
        new Error(`the dev server did not print ${origin} within 120 s; it printed: ${banner.slice(-500)}`),
      );
    }, 120_000);
    server.stdout?.on("data", (chunk: Buffer) => {
      // biome-ignore lint/suspicious/noControlCharactersInRegex: strips ANSI colour codes
      banner += chunk.toString().replace(/\x1b\[[0-9;]*m/g, "");
      if (banner.includes(origin)) {
        clearTimeout(giveUp);
        resolve();
      }
    });
    server.on("exit", (code) => {
      clearTimeout(giveUp);
      reject(new Error(`the dev server exited (${code})`));
    });
  });
  return { origin, stop: () => server.kill() };
}
