import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

test.beforeAll(() => {
  // The classic script as published (React bundled); built here so the test never runs against a stale file.
  const widget = fileURLToPath(new URL("../../packages/shop-widget/", import.meta.url));
  execFileSync(
    process.execPath,
    [
      "node_modules/vite/bin/vite.js",
      "build",
      "--config",
      "vite.script.config.ts",
      "--mode",
      "iife",
      "--logLevel",
      "error",
    ],
    {
      cwd: widget,
      stdio: "inherit",
    },
  );
});

test("the classic-script build mounts through window.EntradaShop and sells a ticket under the strict CSP", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  await page.goto("/script.html?lang=en-GB");
  await expect(page.locator("body")).toHaveAttribute("data-widget-version", /^\d+\.\d+\.\d+/);
  await expect(shop.stepHeading(shop.t("events.heading"))).toBeVisible();
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  await shop.payByCard("4242424242424242");
  await shop.expectConfirmation(1);
  expect(shop.cspViolations).toEqual([]);
});
