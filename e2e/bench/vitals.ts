/**
 * Core Web Vitals of the shop as a buyer gets it, on a phone: the script-tag build as shipped (`dist/script`, compressed
 * and cached like a CDN serves it) on a plain host page (host-site.ts), beside the same page without the shop (the
 * host's own floor). Chromium at 4× CPU slowdown and slow 4G (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up),
 * 390 × 844 CSS px at DPR 3, a fresh cache per run, measured with the `web-vitals` library in the page.
 *
 * Prints the medians of `BENCH_RUNS` runs (default 5; 3 with `--quick`) of LCP, CLS, INP (choosing tickets, adding
 * one, moving to the cart's details), the time until the first event card and the bytes on the wire (compressed,
 * headers included, from the browser's network log) until then, with their ratios to the bare page.
 * `--baseline <dir>` measures a second build (another `dist/script`, e.g. main's) in the same runs, alternating;
 * `--waterfall` prints the requests of the last run of each build. Measures, never asserts: speed is no test.
 *
 * Ports: `E2E_BENCH_PORT` (the host site) and `E2E_BENCH_API_PORT` (the mock API); free ones by default.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium } from "@playwright/test";
import { chromiumPath } from "../../scripts/chromium-path.mjs";
import { type HostSite, startHostSite } from "./host-site.ts";

const args = process.argv.slice(2);
const quick = args.includes("--quick");
const showWaterfall = args.includes("--waterfall");
const showShifts = args.includes("--shifts");
const baselineAt = args.indexOf("--baseline");
const baselineDir = baselineAt >= 0 ? args[baselineAt + 1] : undefined;
if (baselineAt >= 0 && baselineDir === undefined) throw new Error("--baseline needs a dist/script folder");
const runs = Number(process.env.BENCH_RUNS ?? (quick ? 3 : 5));
const dist = fileURLToPath(new URL("../../packages/shop-widget/dist/script/", import.meta.url));
// The classic-script build beside the package's main file (the package exports no path to it).
const webVitals = readFileSync(
  join(dirname(createRequire(import.meta.url).resolve("web-vitals")), "web-vitals.iife.js"),
  "utf8",
);

interface Request {
  url: string;
  type: string;
  start: number;
  end?: number;
  bytes: number;
}

interface Sample {
  lcp: number;
  cls: number;
  inp?: number;
  firstCard?: number;
  bytes: number;
  requests: Request[];
}

/** Runs in the page before its own scripts: web-vitals' callbacks and the moment the first card shows. */
const probe = `${webVitals}
window.__vitals = { lcp: 0, cls: 0, inp: undefined, firstCard: undefined };
webVitals.onLCP((m) => { window.__vitals.lcp = m.value; }, { reportAllChanges: true });
webVitals.onCLS((m) => { window.__vitals.cls = m.value; }, { reportAllChanges: true });
webVitals.onINP((m) => { window.__vitals.inp = m.value; }, { reportAllChanges: true, durationThreshold: 0 });
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.hadRecentInput) continue;
    window.__shifts.push({ at: Math.round(e.startTime), value: e.value, sources: (e.sources || []).map((s) =>
      \`\${s.node ? (s.node.nodeName + "." + (s.node.className || "")) : "?"} \${Math.round(s.previousRect.y)}→\${Math.round(s.currentRect.y)} h\${Math.round(s.currentRect.height)}\`) });
  }
}).observe({ type: "layout-shift", buffered: true });
new MutationObserver((_, observer) => {
  if (document.querySelector(".entrada-shop__card") === null) return;
  window.__vitals.firstCard = performance.now();
  observer.disconnect();
}).observe(document, { childList: true, subtree: true });`;

type Vitals = { __vitals: Omit<Sample, "bytes" | "requests"> };

async function measure(browser: Browser, site: HostSite, withShop: boolean): Promise<Sample> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
    locale: "en-GB",
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // The network log: every request's start and end (ms after the document's request) and its bytes on the wire.
  const requests = new Map<string, Request>();
  let origin: number | undefined;
  cdp.on("Network.requestWillBeSent", (e) => {
    origin ??= e.timestamp;
    const known = requests.get(e.requestId);
    // A redirect or a preflight reuses the id: keep the first start.
    requests.set(e.requestId, {
      url: e.request.url,
      type: e.type ?? "",
      start: known?.start ?? (e.timestamp - (origin ?? e.timestamp)) * 1000,
      bytes: 0,
    });
  });
  cdp.on("Network.loadingFinished", (e) => {
    const request = requests.get(e.requestId);
    if (request === undefined || origin === undefined) return;
    request.end = (e.timestamp - origin) * 1000;
    request.bytes = e.encodedDataLength;
  });
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript({ content: probe });
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(String(error)));
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });

  await page.goto(`${site.origin}${withShop ? site.pages.shop : site.pages.bare}`, { waitUntil: "load" });
  const shop = page.locator("#tickets .entrada-shop");
  let inp: number | undefined;
  let firstCard: number | undefined;
  if (withShop) {
    await shop.locator(".entrada-shop__card").first().waitFor({ timeout: 60_000 });
    // The first card's picture is the LCP candidate: let it arrive before the first interaction ends LCP.
    await page.waitForFunction(
      () => document.querySelector<HTMLImageElement>(".entrada-shop__card img")?.complete !== false,
      undefined,
      { timeout: 60_000 },
    );
    firstCard = await page.evaluate(() => (window as unknown as Vitals).__vitals.firstCard);
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
    await page.waitForFunction(() => (window as unknown as Vitals).__vitals.inp !== undefined);
    inp = await page.evaluate(() => (window as unknown as Vitals).__vitals.inp);
  }
  // web-vitals reports from its observers' callbacks: the bare page's LCP may not be in yet at `load`.
  await page.waitForFunction(() => (window as unknown as Vitals).__vitals.lcp > 0);
  const vitals = await page.evaluate(() => {
    const { lcp, cls } = (window as unknown as Vitals).__vitals;
    return { lcp, cls, now: performance.now() };
  });
  if (showShifts && withShop) {
    console.log(
      JSON.stringify(
        await page.evaluate(() => (window as unknown as { __shifts: unknown }).__shifts),
        null,
        1,
      ),
    );
  }
  await context.close();
  if (errors.length > 0) throw new Error(`the page reported errors:\n${errors.join("\n")}`);
  // Up to the first card (the page's load for the bare page); the network log's clock starts with the document's
  // request, the page's with its navigation: close enough at this network's latency.
  const until = firstCard ?? vitals.now;
  const log = [...requests.values()].sort((a, b) => a.start - b.start);
  const bytes = log.filter((r) => r.end !== undefined && r.end <= until).reduce((n, r) => n + r.bytes, 0);
  return {
    lcp: vitals.lcp,
    cls: vitals.cls,
    ...(inp === undefined ? {} : { inp }),
    ...(firstCard === undefined ? {} : { firstCard }),
    bytes,
    requests: log,
  };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

function waterfall(name: string, sample: Sample) {
  const lines = sample.requests.map((r) => {
    const url = new URL(r.url);
    const what = `${url.port === "" ? url.host : `:${url.port}`}${url.pathname}${url.search}`.slice(0, 70);
    const end = r.end === undefined ? "    …" : r.end.toFixed(0).padStart(5);
    return `  ${r.start.toFixed(0).padStart(5)} → ${end} ms ${(r.bytes / 1024).toFixed(1).padStart(6)} KB  ${r.type.padEnd(10)} ${what}`;
  });
  console.log(
    `\nWaterfall, ${name} (last run; first card at ${sample.firstCard?.toFixed(0)} ms):\n${lines.join("\n")}`,
  );
}

type Kind = "bare" | "shop" | "baseline";
const sites: Partial<Record<Kind, HostSite>> = {};
const port = Number(process.env.E2E_BENCH_PORT ?? 0);
const apiPort = Number(process.env.E2E_BENCH_API_PORT ?? 0);
try {
  sites.shop = await startHostSite(dist, port, apiPort);
  sites.bare = sites.shop;
  // The baseline on its own free ports (its own mock too): the same page, another build.
  if (baselineDir !== undefined) sites.baseline = await startHostSite(resolve(baselineDir));
  const browser = await chromium.launch({
    executablePath: chromiumPath() ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const kinds: Kind[] = baselineDir === undefined ? ["bare", "shop"] : ["bare", "baseline", "shop"];
  const samples: Record<Kind, Sample[]> = { shop: [], bare: [], baseline: [] };
  // One warm-up of each (the servers compress on first request, Chromium warms up), then alternating runs.
  for (let run = -1; run < runs; run += 1) {
    for (const kind of kinds) {
      const site = sites[kind] as HostSite;
      const sample = await measure(browser, site, kind !== "bare");
      if (run >= 0) samples[kind].push(sample);
    }
  }
  await browser.close();

  const of = (kind: Kind, pick: (s: Sample) => number | undefined) => {
    const values = samples[kind].map(pick).filter((v): v is number => v !== undefined);
    return values.length === 0 ? undefined : median(values);
  };
  const row = (name: string, pick: (s: Sample) => number | undefined, unit: string, digits: number) => {
    const bare = of("bare", pick);
    const cell = (kind: Kind) => {
      const value = of(kind, pick);
      if (value === undefined) return "–";
      const ratio =
        bare !== undefined && bare > 0 && kind !== "bare" ? ` (×${(value / bare).toFixed(2)})` : "";
      return `${value.toFixed(digits)}${unit}${ratio}`;
    };
    const shown: Kind[] = [...kinds.filter((k) => k !== "bare"), "bare"];
    return `| ${name} | ${shown.map(cell).join(" | ")} |`;
  };
  const heads =
    baselineDir === undefined
      ? ["script-tag shop (this build)"]
      : [
          `baseline (${basename(dirname(resolve(baselineDir)))}/${basename(resolve(baselineDir))})`,
          "this build",
        ];
  console.log(
    [
      `\nPhone profile (4× CPU, 150 ms RTT, 1.6 Mbit/s, 390 × 844 @3x), built script tag, medians of ${runs} runs`,
      `(× ratio to the same page without the shop; goals LCP ≤ 2000 ms, INP ≤ 100 ms, CLS ≤ 0.05)`,
      `| | ${heads.join(" | ")} | same page without the shop |`,
      `| --- | ${heads.map(() => "---").join(" | ")} | --- |`,
      row("LCP", (s) => s.lcp, " ms", 0),
      row("CLS", (s) => s.cls, "", 4),
      row("INP (choose, add, to details)", (s) => s.inp, " ms", 0),
      row("first event card (page load for the bare page)", (s) => s.firstCard, " ms", 0),
      row("bytes on the wire until then", (s) => s.bytes / 1024, " KB", 1),
    ].join("\n"),
  );
  if (showWaterfall) {
    for (const kind of kinds.filter((k) => k !== "bare")) {
      const last = samples[kind].at(-1);
      if (last) waterfall(kind === "shop" ? "this build" : "baseline", last);
    }
  }
} finally {
  await sites.shop?.close();
  await sites.baseline?.close();
}
