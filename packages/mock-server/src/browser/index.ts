/**
 * Browser transport: the same engine inside msw's service worker, so a front end (the shop widget's dev page)
 * runs against the mock with no backend. Copy the worker script first:
 *   npx msw init public/ --save      (or: node node_modules/@entrada/mock-server/scripts/copy-worker.mjs public)
 */
import { type SetupWorker, setupWorker } from "msw/browser";
import type { MockCore } from "../core/engine.ts";
import { createMock, type MockHandlersOptions } from "../msw/index.ts";

export interface BrowserMockOptions extends MockHandlersOptions {
  /** URL of `mockServiceWorker.js` (default "/mockServiceWorker.js"). */
  serviceWorkerUrl?: string;
  /** Silence msw's console output (default true). */
  quiet?: boolean;
}

export interface BrowserMock {
  worker: SetupWorker;
  core: MockCore;
  baseUrl: string;
  reset(sessionId?: string): void;
  stop(): void;
}

/**
 * Starts the mock in the browser. Use a same-origin base URL (e.g. `${location.origin}/api`) so the hosted
 * payment page, a top-level navigation, is served by the worker too.
 * @example const mock = await startBrowserMock({ baseUrl: `${location.origin}/api` });
 */
export async function startBrowserMock(options: BrowserMockOptions): Promise<BrowserMock> {
  const { serviceWorkerUrl = "/mockServiceWorker.js", quiet = true, ...rest } = options;
  const mock = createMock(rest);
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: serviceWorkerUrl }, onUnhandledFrame: "bypass", quiet });
  return {
    worker,
    core: mock.core,
    baseUrl: mock.baseUrl,
    reset: mock.reset,
    stop: () => {
      worker.stop();
      void mock.close();
    },
  };
}
