import type { CDPSession, Page } from "@playwright/test";

/** What a page holds after a full garbage collection (Chromium, through the DevTools protocol). */
export interface Retained {
  /** Live DOM nodes (in the document or detached but still referenced). */
  nodes: number;
  /** Event listeners registered from JavaScript. */
  listeners: number;
  /** The JavaScript heap in use, in bytes. */
  heap: number;
}

export async function retained(cdp: CDPSession, page: Page): Promise<Retained> {
  // The browser's own resource-timing buffer grows with every request; it is the page's, not the widget's.
  await page.evaluate(() => performance.clearResourceTimings());
  // Twice: the first collection's finalizers free more for the second.
  await cdp.send("HeapProfiler.collectGarbage");
  await cdp.send("HeapProfiler.collectGarbage");
  const { nodes, jsEventListeners } = await cdp.send("Memory.getDOMCounters");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const heap = metrics.find((m) => m.name === "JSHeapUsedSize")?.value ?? Number.NaN;
  return { nodes, listeners: jsEventListeners, heap };
}

export async function memoryProbe(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  return cdp;
}
