import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

// The classic script is built by global-setup.ts with the ES module build.
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
