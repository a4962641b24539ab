import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { build, type Rolldown } from "vite";

/**
 * The mock's browser build (`@entrada/mock-server/browser`: msw service worker, precompiled validators) on a page
 * served with a strict Content-Security-Policy response header — `script-src 'self'`, no 'unsafe-eval' — making
 * real requests through the SDK: list events, create a cart, add an item, and validation failures answered with
 * problem+json. Not one CSP violation, not one console error. The page (e2e/csp-mock/) is built by Vite as an app
 * would be and served by a small static server started here (port E2E_CSP_PORT, default a free one).
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "form-action 'none'",
].join("; ");

const root = fileURLToPath(new URL("../csp-mock/", import.meta.url));
const requireFromMock = createRequire(
  createRequire(import.meta.url).resolve("@entrada/mock-server/package.json"),
);
let server: Server;
let origin = "";

test.beforeAll(async () => {
  const result = (await build({
    configFile: false,
    logLevel: "error",
    root,
    mode: "production",
    resolve: { conditions: ["source", "browser", "module", "import", "default"] },
    build: { write: false, modulePreload: false },
  })) as Rolldown.RolldownOutput;
  const files = new Map<string, { type: string; body: string | Uint8Array }>();
  for (const item of result.output) {
    const body = item.type === "chunk" ? item.code : item.source;
    const type = item.fileName.endsWith(".html") ? "text/html" : "text/javascript";
    files.set(`/${item.fileName}`, { type: `${type}; charset=utf-8`, body });
  }
  files.set("/eval-probe.js", {
    type: "text/javascript; charset=utf-8",
    body: 'try { new Function("return 1")(); window.evalProbe = "allowed"; } catch (e) { window.evalProbe = e.name; }',
  });
  files.set("/mockServiceWorker.js", {
    type: "text/javascript; charset=utf-8",
    body: await readFile(requireFromMock.resolve("msw/mockServiceWorker.js"), "utf8"),
  });
  server = createServer((req, res) => {
    const path = new URL(req.url ?? "/", "http://page").pathname;
    if (path === "/favicon.ico") {
      res.writeHead(204, { "content-security-policy": CSP }).end();
      return;
    }
    const file = files.get(path === "/" ? "/index.html" : path);
    // Whatever reaches this server under /api was not answered by the mock's service worker: a failure.
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain", "content-security-policy": CSP }).end("not found");
      return;
    }
    res.writeHead(200, {
      "content-type": file.type,
      "content-security-policy": CSP,
      "cache-control": "no-store",
    });
    res.end(file.body);
  });
  await new Promise<void>((resolve) =>
    server.listen(Number(process.env.E2E_CSP_PORT ?? 0), "127.0.0.1", resolve),
  );
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test("the mock's browser build answers real requests under script-src 'self' without 'unsafe-eval'", async ({
  page,
}) => {
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });
  page.on("pageerror", (error) => consoleErrors.push(error.message));
  await page.addInitScript(() => {
    const violations: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = violations;
    document.addEventListener("securitypolicyviolation", (event) =>
      violations.push(
        `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  });

  const response = await page.goto(`${origin}/`);
  expect(response?.headers()["content-security-policy"]).toBe(CSP);
  await expect(page.locator("body")).toHaveAttribute("data-state", /done|failed/);
  const text = (await page.locator("#results").textContent()) ?? "";
  expect(await page.locator("body").getAttribute("data-state"), text).toBe("done");
  const outcome = JSON.parse(text);

  expect(outcome).toMatchObject({
    logId: expect.stringMatching(/^log_/),
    contentLanguage: "en-GB",
    events: 2,
    cart: { id: expect.stringMatching(/^crt_/), status: "open" },
    items: [2],
    badQuery: { status: 400, slug: "validation-error", pointers: ["/query/limit"] },
    badBody: { status: 400, slug: "validation-error", pointers: expect.arrayContaining(["/body/quantity"]) },
    raw: [
      { status: 400, contentType: "application/problem+json" },
      { status: 401, contentType: "application/problem+json" },
    ],
    rawBodies: [
      {
        type: "https://docs.entrada.dev/problems/validation-error",
        status: 400,
        errors: [expect.objectContaining({ pointer: "/query/limit" })],
      },
      { type: "https://docs.entrada.dev/problems/unauthorized", status: 401 },
    ],
  });
  const violations = await page.evaluate(
    () => (window as unknown as { cspViolations: string[] }).cspViolations,
  );
  expect(violations).toEqual([]);
  // Chromium logs each deliberately failing request (400, 400, 400, 401) as a console error; nothing else is.
  expect(consoleErrors).toEqual(
    [400, 400, 400, 401].map((status) => expect.stringMatching(new RegExp(`status of ${status} \\(`))),
  );

  // The policy is enforced (the checks above are not vacuous): a same-origin script that evaluates code is refused
  // and reported. (Playwright's own evaluate bypasses the page's CSP, so the probe is a script the page loads.)
  await page.evaluate(() => {
    const probe = document.createElement("script");
    probe.src = "/eval-probe.js";
    document.head.append(probe);
  });
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { evalProbe?: string }).evalProbe))
    .toBe("EvalError");
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations))
    .toEqual([expect.stringContaining("script-src")]);
});
