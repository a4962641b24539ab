import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";

/**
 * The HTML API reference as a person finds it: open the mock's address in Chromium, land on the reference
 * (rendered by Redoc from the documentation server's snapshot), reach every guide section and every operation,
 * with no console errors.
 */
const root = fileURLToPath(new URL("../../", import.meta.url));
let mock: ChildProcess;
let base = "";

interface Operation {
  operationId: string;
  tag: string;
  summary: string;
}

test.beforeAll(async () => {
  // The reference as `pnpm build` renders it; rebuilt here so the test never runs against a stale file.
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

/** The route slug Redoc gives a Markdown heading (`Content-Security-Policy` → `content-security-policy`). */
function slug(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** A heading's accessible name: Redoc prefixes its permalink ("link to <route> <title>"). */
function titled(title: string): RegExp {
  return new RegExp(`(^|\\s)${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
}

/** Collects console errors and failed same-origin requests; answers the few external (CDN) requests offline. */
async function watch(page: Page): Promise<{ errors: string[]; external: string[] }> {
  const errors: string[] = [];
  const external: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  // Redoc's "API docs by Redocly" badge loads its logo from Redocly's CDN, which CI cannot reach: answer it here.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, async (route) => {
    external.push(route.request().url());
    await route.fulfill({
      status: 200,
      contentType: "image/svg+xml",
      body: '<svg xmlns="http://www.w3.org/2000/svg"/>',
    });
  });
  return { errors, external };
}

test("the mock's address leads a browser to the HTML reference with the guides and every operation", async ({
  page,
}) => {
  // Thirteen loads of a 2.9 MB page (Redoc inlined): about a minute on a busy 2-core machine.
  test.setTimeout(180_000);
  const seen = await watch(page);
  await page.goto(base);
  await expect(page).toHaveURL(`${base}/reference`);
  await expect(page.getByRole("heading", { level: 1 }).first()).toContainText("Entrada API");
  // The intro points to the developer controls and the Markdown mirrors.
  await expect(page.locator('a[href="/__mock"]').first()).toBeAttached();
  await expect(page.locator('a[href="/ai/index.md"]').first()).toBeAttached();

  const document = await (await page.request.get(`${base}/reference/openapi.json`)).json();
  const tags = document.tags as { name: string; "x-displayName": string; "x-traitTag"?: boolean }[];
  // What must be reachable: each guide's sections (from its Markdown mirror) and every operation and webhook event.
  const expected = new Map<string, string>();
  for (const name of ["shop-front-end", "guidelines", "webhooks"]) {
    const markdown = await (await page.request.get(`${base}/ai/guide-${name}.md`)).text();
    const titles = [...markdown.matchAll(/^## (.+)$/gm)].map((m) =>
      (m[1] as string).replace(/`/g, "").trim(),
    );
    expect(titles.length).toBeGreaterThan(5);
    for (const title of titles) expected.set(`guide-${name}:${title}`, title);
  }
  for (const group of [document.paths, document.webhooks] as Record<
    string,
    Record<string, Operation & { tags: string[] }>
  >[])
    for (const item of Object.values(group))
      for (const op of Object.values(item))
        if (op && typeof op === "object" && "operationId" in op)
          expected.set(
            `#/${(op.tags[0] as string).toLowerCase()}/${op.operationId.toLowerCase()}`,
            op.summary,
          );
  expect(expected.size).toBeGreaterThan(120);

  // Open the first entry of each guide and module by its deep link: the entry renders, and the menu, opened at
  // that guide or module, lists the links to every section or operation in it.
  const menu: (readonly [string, string])[] = [];
  for (const tag of tags) {
    const route = tag["x-traitTag"] ? `#/${tag.name}/` : `#/${tag.name.toLowerCase()}/`;
    const [key, title] = [...expected].find(([k]) =>
      tag["x-traitTag"] ? k.startsWith(`${tag.name}:`) : k.startsWith(route),
    ) as [string, string];
    const href = key.startsWith("#/") ? key : `${route}${slug(title)}`;
    await page.goto(`${base}/reference${href}`);
    await expect(page.getByRole("heading", { name: titled(title) }).first(), href).toBeVisible();
    menu.push(
      ...(await page
        .locator(`a[href^="${route}"]`)
        .evaluateAll((as) =>
          as
            .map((a) => [a.getAttribute("href") as string, (a.textContent ?? "").trim()] as const)
            .filter(([, t]) => t),
        )),
    );
  }
  const missing: string[] = [];
  for (const [key, title] of expected) {
    const found = key.startsWith("#/")
      ? menu.some(([href, text]) => href === key && text.startsWith(title))
      : menu.some(
          ([href, text]) => href.startsWith(`#/${key.slice(0, key.indexOf(":"))}/`) && text === title,
        );
    if (!found) missing.push(`${key} ${title}`);
  }
  expect(missing).toEqual([]);

  expect(seen.errors).toEqual([]);
  expect(seen.external.every((url) => url.includes("cdn.redoc.ly/redoc/logo"))).toBe(true);
});
