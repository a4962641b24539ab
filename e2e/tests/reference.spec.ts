import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";

/**
 * The HTML API reference as a person finds it: open the mock's address in Chromium, land on the reference
 * (Scalar, served from the mock's own origin under the reference's CSP), reach every guide section, every operation
 * and every webhook event, and send a real request to the mock from the page with the demo credentials it
 * pre-fills — no console errors, no request leaving the origin.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
let mock: ChildProcess;
let base = "";

test.beforeAll(async () => {
  // The reference as `pnpm build` builds it; rebuilt here so the test never runs against a stale file.
  execFileSync(
    process.execPath,
    [
      "--conditions=source",
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      "scripts/build-reference.ts",
    ],
    { cwd: `${root}packages/docs-server`, stdio: "inherit" },
  );
  // The mock CLI exactly as `pnpm mock` runs it, on a free port.
  mock = spawn(
    process.execPath,
    [
      "--conditions=source",
      "--experimental-transform-types",
      "--disable-warning=ExperimentalWarning",
      "src/node/cli.ts",
      "--port",
      "0",
      "--no-webhooks",
    ],
    { cwd: `${root}packages/mock-server`, stdio: ["ignore", "pipe", "inherit"] },
  );
  base = await new Promise<string>((resolve, reject) => {
    let out = "";
    mock.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /Entrada mock server\s+(http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve(url);
    });
    mock.once("exit", (code) => reject(new Error(`mock exited with ${code}: ${out}`)));
  });
});

test.afterAll(() => {
  mock?.kill("SIGTERM");
});

/** Collects console errors, CSP violations and any request that leaves the mock's origin (aborted: offline). */
async function watch(page: Page): Promise<{ errors: string[]; external: string[] }> {
  const errors: string[] = [];
  const external: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  await page.route(
    (url) => url.origin !== new URL(base).origin && url.protocol !== "data:",
    async (route) => {
      external.push(route.request().url());
      await route.abort();
    },
  );
  return { errors, external };
}

test("the mock's address leads a browser to the reference with the three guides, every operation and every event", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const seen = await watch(page);
  const response = await page.goto(base);
  await expect(page).toHaveURL(`${base}/reference`);
  expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
  await expect(page.getByRole("heading", { name: "Entrada API", exact: true }).first()).toBeVisible();
  // The intro points to the developer controls and the Markdown mirrors.
  await expect(page.locator('a[href="/__mock"]').first()).toBeAttached();
  await expect(page.locator('a[href="/ai/index.md"]').first()).toBeAttached();

  // Every guide, with every one of its sections (as its Markdown mirror has them), is in the menu and the page.
  const sidebar = page.getByRole("complementary", { name: "Sidebar for Entrada API" });
  for (const [name, title] of [
    ["shop-front-end", "Shop front-end guide"],
    ["guidelines", "Guidelines"],
    ["webhooks", "Webhooks"],
  ] as const) {
    // Its menu entry opens it (the page renders sections as they are reached).
    const entry = sidebar.locator(`a[href="#tag/guide-${name}"]`);
    await expect(entry).toHaveText(title);
    await entry.click();
    await expect(page).toHaveURL(`${base}/reference#tag/guide-${name}`);
    const markdown = await (await page.request.get(`${base}/ai/guide-${name}.md`)).text();
    const sections = [...markdown.matchAll(/^## (.+)$/gm)].map((m) =>
      (m[1] as string).replace(/`/g, "").trim(),
    );
    expect(sections.length).toBeGreaterThan(5);
    for (const section of sections)
      await expect(page.getByRole("heading", { name: section, exact: true }).first(), section).toBeAttached();
  }

  // Open every group of the menu: each operation and each webhook event of the document is listed.
  const open = sidebar.getByRole("button", { name: /^Open Group - / });
  for (let i = 0; i < 50 && (await open.count()) > 0; i++) await open.first().click();
  await expect(open).toHaveCount(0);
  const listed = (await sidebar.textContent()) ?? "";
  const document = await (await page.request.get(`${base}/reference/openapi.json`)).json();
  const summaries: string[] = [];
  for (const group of [document.paths, document.webhooks] as Record<string, Record<string, unknown>>[])
    for (const item of Object.values(group))
      for (const op of Object.values(item))
        if (op && typeof op === "object" && "operationId" in op)
          summaries.push((op as unknown as { summary: string }).summary);
  expect(summaries.length).toBeGreaterThan(90);
  expect(summaries.filter((summary) => !listed.includes(summary))).toEqual([]);

  expect(seen.errors).toEqual([]);
  expect(seen.external).toEqual([]);
});

test("a developer sends a request from the reference to the mock with the pre-filled demo token and sees the answer", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const seen = await watch(page);
  const sent: { url: string; authorization: string | undefined }[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/shop/v1/discovery/venues")
      sent.push({ url: request.url(), authorization: request.headers().authorization });
  });
  await page.goto(`${base}/reference#tag/shop/GET/shop/v1/discovery/venues`);
  // The server is the mock the reference is mounted in; the demo client's token is already there.
  await page.getByRole("button", { name: /Test Request.*get \/shop\/v1\/discovery\/venues\)/ }).click();
  const send = page.getByRole("button", { name: `Send get request to ${base}/shop/v1/discovery/venues` });
  await expect(send).toBeVisible();
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === "/shop/v1/discovery/venues");
  await send.click();
  expect((await answered).status()).toBe(200);
  expect(sent).toHaveLength(1);
  expect(sent[0]?.url).toBe(`${base}/shop/v1/discovery/venues`);
  expect(sent[0]?.authorization).toMatch(/^Bearer \S+$/);
  // The response as the page shows it: the status and the venues the mock answered with.
  const venues = (await (await answered).json()) as { items: { id: string; name: string }[] };
  expect(venues.items.length).toBeGreaterThan(0);
  await expect(page.getByText("200 OK").first()).toBeVisible();
  await expect(page.getByText(`"${venues.items[0]?.id}"`).first()).toBeVisible();

  expect(seen.errors).toEqual([]);
  expect(seen.external).toEqual([]);
});
