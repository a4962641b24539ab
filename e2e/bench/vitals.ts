/**
 * Core Web Vitals of the script-tag build on a phone, beside the same host page without the shop (the host's own
 * floor): Chromium at 4× CPU slowdown and slow 4G (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up), 390 × 844 CSS px
 * at DPR 3, a fresh cache per run, measured with the `web-vitals` library in the page. Prints the medians of
 * `BENCH_RUNS` runs (default 5; 3 with `--quick`) of LCP, CLS, INP (choosing tickets, adding one, moving to the
 * cart's details), and the time and bytes until the first event card. Measures, never asserts: speed is no test.
 *
 * Bytes are what the dev server sent (uncompressed, as Vite serves files) for the page's own requests, without
 * Vite's client, which both pages load.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { type BrowserContext, chromium } from "@playwright/test";
import { chromiumPath } from "../../scripts/chromium-path.mjs";
import { startDevServer } from "../engines/dev-server.ts";

const quick = process.argv.includes("--quick");
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 3 : 5));
const port = Number(process.env.E2E_BENCH_PORT ?? 5176);
const origin = `http://127.0.0.1:${port}`;
// The classic-script build beside the package's main file (the package exports no path to it).
const webVitals = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve("web-vitals")), "web-vitals.iife.js"),
  "utf8",
);

interface Sample {
  lcp: number;
  cls: number;
  inp?: number;
  firstCard?: number;
  bytes: number;
}

/** Runs in the page before its own scripts: web-vitals' callbacks and the moment the first card shows. */
const probe = `${webVitals}
window.__vitals = { lcp: 0, cls: 0, inp: undefined, firstCard: undefined };
webVitals.onLCP((m) => { window.__vitals.lcp = m.value; }, { reportAllChanges: true });
webVitals.onCLS((m) => { window.__vitals.cls = m.value; }, { reportAllChanges: true });
webVitals.onINP((m) => { window.__vitals.inp = m.value; }, { reportAllChanges: true, durationThreshold: 0 });
new MutationObserver((_, observer) => {
  if (document.querySelector(".entrada-shop__card") === null) return;
  window.__vitals.firstCard = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

async function phone(context: BrowserContext) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript({ content: probe });
  return page;
}

async function measure(context: BrowserContext, withShop: boolean): Promise<Sample> {
  const page = await phone(context);
  await page.goto(`${origin}/${withShop ? "vitals.html" : "vitals-bare.html"}`, { waitUntil: "load" });
  const shop = page.locator("#tickets .entrada-shop");
  let inp: number | undefined;
  if (withShop) {
    await shop.locator(".entrada-shop__card").first().waitFor({ timeout: 60_000 });
    // The first card's picture is the LCP candidate: let it arrive before the first interaction ends LCP.
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>(".entrada-shop__card img")?.complete !== false,
      undefined,
      { timeout: 60_000 },
    );
    await shop
      .getByRole("button", { name: /^Choose tickets for / })
      .first()
      .click();
    await shop.getByRole("heading", { level: 2 }).and(page.locator(":focus")).waitFor({ timeout: 60_000 });
    await shop
      .getByRole("button", { name: /^One more: / })
      .first()
      .click();
    await shop.getByRole("button", { name: "Add to cart" }).click();
    await shop.getByRole("heading", { level: 2, name: "Your cart" }).waitFor({ timeout: 60_000 });
    await shop.getByRole("button", { name: "Continue to your details" }).click();
    await shop.getByRole("heading", { level: 2, name: "Your details" }).waitFor({ timeout: 60_000 });
    // INP is the slowest of these interactions once their event timing entries are in.
    await page.waitForFunction(() => (window as unknown as { __vitals: Sample }).__vitals.inp !== undefined);
    inp = await page.evaluate(() => (window as unknown as { __vitals: Sample }).__vitals.inp);
  }
  const result = await page.evaluate((withShop) => {
    const vitals = (window as unknown as { __vitals: Sample }).__vitals;
    const until = withShop ? (vitals.firstCard ?? Number.POSITIVE_INFINITY) : performance.now();
    const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter(
      (r) => r.responseEnd <= until && !r.name.includes("/@vite/"),
    );
    const bytes = navigation.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0);
    return { lcp: vitals.lcp, cls: vitals.cls, firstCard: vitals.firstCard, bytes };
  }, withShop);
  await page.close();
  return { ...result, ...(inp === undefined ? {} : { inp }) };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const server = await startDevServer(port);
try {
  const browser = await chromium.launch({
    executablePath: chromiumPath() ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const samples: Record<"shop" | "bare", Sample[]> = { shop: [], bare: [] };
  // One warm-up of each (the dev server transforms files on first request), then alternating runs.
  for (let run = -1; run < runs; run += 1) {
    for (const kind of ["bare", "shop"] as const) {
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 3,
        isMobile: true,
        hasTouch: true,
        locale: "en-GB",
      });
      const sample = await measure(context, kind === "shop");
      await context.close();
      if (run >= 0) samples[kind].push(sample);
    }
  }
  await browser.close();
  const row = (name: string, pick: (s: Sample) => number | undefined, unit: string, digits: number) => {
    const of = (kind: "shop" | "bare") => {
      const values = samples[kind].map(pick).filter((v): v is number => v !== undefined);
      return values.length === 0 ? "–" : `${median(values).toFixed(digits)}${unit}`;
    };
    return `| ${name} | ${of("shop")} | ${of("bare")} |`;
  };
  console.log(
    [
      `\nPhone profile (4× CPU, 150 ms RTT, 1.6 Mbit/s, 390 × 844 @3x), medians of ${runs} runs`,
      "| | script-tag shop | same page without the shop |",
      "| --- | --- | --- |",
      row("LCP", (s) => s.lcp, " ms", 0),
      row("CLS", (s) => s.cls, "", 4),
      row("INP (choose, add, to details)", (s) => s.inp, " ms", 0),
      row("first event card", (s) => s.firstCard, " ms", 0),
      row("bytes until the first card (page load for the bare page)", (s) => s.bytes / 1024, " KB", 1),
    ].join("\n"),
  );
} finally {
  server.stop();
}
