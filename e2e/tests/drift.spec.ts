import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";

/**
 * The README's drift walkthrough in Chromium: the drifting relay (`pnpm drifting-relay`) and the contract proxy in
 * front of it (`pnpm mock proxy --upstream …`), both started as the README starts them, some traffic through the
 * proxy, then the drift report opened in the browser: exactly the relay's three differences, readable, with the
 * first example under each, and no console errors (the page runs under a strict CSP without script).
 */
const mockServer = fileURLToPath(new URL("../../packages/mock-server/", import.meta.url));
const NODE = [
  "--conditions=source",
  "--experimental-transform-types",
  "--disable-warning=ExperimentalWarning",
];
const children: ChildProcess[] = [];

function start(args: string[], banner: RegExp): Promise<string> {
  const child = spawn(process.execPath, [...NODE, ...args], {
    cwd: mockServer,
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  return new Promise<string>((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = banner.exec(out)?.[1];
      if (url) resolve(url);
    });
    child.once("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}: ${out}`)));
  });
}

let proxy = "";

test.beforeAll(async () => {
  const relay = await start(["scripts/drifting-relay.ts", "--port", "0"], /Drifting relay\s+(http:\/\/\S+)/);
  proxy = await start(
    ["src/node/cli.ts", "proxy", "--upstream", relay, "--port", "0", "--quiet"],
    /Entrada contract proxy\s+(http:\/\/\S+)/,
  );
  // Traffic through the proxy: discovery, an event, venues, a write and its replay.
  const token = (await (
    await fetch(`${proxy}/connect/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials&scope=Shop",
    })
  ).json()) as { access_token: string };
  const auth = { authorization: `Bearer ${token.access_token}` };
  const events = (await (
    await fetch(`${proxy}/shop/v1/discovery/events?limit=2`, { headers: auth })
  ).json()) as {
    items: Array<{ id: string }>;
  };
  for (const event of events.items)
    await fetch(`${proxy}/shop/v1/discovery/events/${event.id}`, { headers: auth });
  await fetch(`${proxy}/shop/v1/discovery/venues`, { headers: auth });
  for (let i = 0; i < 2; i++)
    await fetch(`${proxy}/shop/v1/cart`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "e2e-drift-1" },
      body: '{"currency":"CHF"}',
    });
});

test.afterAll(() => {
  for (const child of children) child.kill("SIGTERM");
});

test("the drift report shows exactly the relay's three differences in the browser", async ({ page }) => {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  await page.goto(`${proxy}/__mock/drift`);
  await expect(page.getByRole("heading", { level: 1, name: "Contract drift" })).toBeVisible();
  await expect(page.getByText("3 differences in 3 operations.")).toBeVisible();
  const rows = page.locator("tbody tr");
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole("heading", { level: 3, name: /getEvent/ })).toBeVisible();
  const getEvent = page.locator("section", { has: page.getByRole("heading", { name: /getEvent/ }) });
  await expect(getEvent.locator("tbody tr")).toContainText(["schema/body/nameRequired member is missing."]);
  await expect(getEvent.locator("td").last()).toHaveText("2");
  await expect(page.locator("section", { hasText: "listVenues" }).locator("tbody tr")).toContainText(
    "Status 410 is not declared for listVenues",
  );
  await expect(page.locator("section", { hasText: "createCart" }).locator("tbody tr")).toContainText(
    "/header/idempotent-replayed",
  );
  // The first example unfolds: the request and the upstream's answer as it came.
  const example = page.locator("section", { hasText: "listVenues" }).locator("details");
  await example.locator("summary").click();
  await expect(example.locator("pre")).toContainText("GET /shop/v1/discovery/venues");
  await expect(example.locator("pre")).toContainText("HTTP 410");
  expect(errors).toEqual([]);
});
