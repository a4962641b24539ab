/**
 * Browser transport: the same engine inside msw's service worker, so a front end (the shop widget's dev page)
 * runs against the mock with no backend. Copy the worker script first:
 *   npx msw init public/ --save      (or: node node_modules/@entrada/mock-server/scripts/copy-worker.mjs public)
 */
import { type SetupWorker, setupWorker } from "msw/browser";
import type { MockCore } from "../core/engine.ts";
import { bridgeMock, type EntradaMsw, type MockHandlersOptions } from "../msw/bridge.ts";

export { MockConfigError } from "../core/validation.ts";

/**
 * Options of the browser build. It validates requests with the validators precompiled from the bundled contract
 * only (no Ajv compiler, no `new Function`: it runs under a strict Content-Security-Policy without
 * 'unsafe-eval'); `validateResponses` or a custom `document` throw a `MockConfigError` naming the alternatives.
 */
export interface BrowserMockOptions extends Omit<MockHandlersOptions, "schemaCompiler"> {
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
  /** Completes a pending redirect payment (see `EntradaMsw.completePayment`); returns the return URL. */
  completePayment: EntradaMsw["completePayment"];
  stop(): void;
}

/**
 * Starts the mock in the browser. State lives in this page's memory; msw's worker does not serve top-level
 * navigations (such as the redirect provider's hosted page) once this page unloads, so complete redirect payments
 * in the page with `completePayment` (or run the standalone server for full redirects).
 * @example const mock = await startBrowserMock({ baseUrl: `${location.origin}/api` });
 */
export async function startBrowserMock(options: BrowserMockOptions): Promise<BrowserMock> {
  const { serviceWorkerUrl = "/mockServiceWorker.js", quiet = true, ...rest } = options;
  const mock = bridgeMock(rest);
  const worker = setupWorker(...mock.handlers);
  await worker.start({ serviceWorker: { url: serviceWorkerUrl }, onUnhandledFrame: "bypass", quiet });
  return {
    worker,
    core: mock.core,
    baseUrl: mock.baseUrl,
    reset: mock.reset,
    completePayment: mock.completePayment,
    stop: () => {
      worker.stop();
      void mock.close();
    },
  };
}
