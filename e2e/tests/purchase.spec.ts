import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

test.describe("the dev page", () => {
  test("a complete purchase by card shows the tickets", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.open();
    await shop.chooseEvent("Family Theatre");
    await shop.addTickets("Category 1", "Adult", 2);
    await shop.addToCart();
    await expect(shop.shop.getByText(/Tickets held for \d+:\d\d/)).toBeVisible();
    await shop.toDetails();
    await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
    await shop.payByCard("4242 4242 4242 4242");
    await shop.expectConfirmation(2);

    // The ticket link downloads the PDF through the API with the session token.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      shop.shop.getByRole("link", { name: shop.t("confirmation.pdf", { n: 1 }) }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^ticket-tkt_.+\.pdf$/);
    const path = await download.path();
    const { readFile } = await import("node:fs/promises");
    expect((await readFile(path)).subarray(0, 5).toString()).toBe("%PDF-");

    // The host saw the callbacks, and the strict CSP was never violated.
    await expect(shop.log()).toContainText("onCheckoutComplete");
    await expect(shop.log()).toContainText("analytics purchase");
    expect(shop.cspViolations).toEqual([]);
  });

  test("a purchase through the hosted payment page resumes after the redirect", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.open();
    await shop.chooseEvent("Jazz Night");
    await shop.shop
      .getByRole("button", { name: /^One more: / })
      .first()
      .click();
    await shop.addToCart();
    await shop.toDetails();
    await shop.shop.getByLabel(shop.t("details.firstName")).fill("Luca");
    await shop.shop.getByLabel(shop.t("details.lastName")).fill("Rossi");
    await shop.shop.getByLabel(shop.t("details.email"), { exact: true }).fill("luca@example.ch");
    // Jazz Night asks its survey: conditional questions appear as answers change.
    await shop.shop.getByRole("radio", { name: "Other" }).check();
    await shop.shop.getByLabel("Where exactly?").fill("A poster at the station");
    await shop.shop
      .getByRole("group", { name: /newsletter/ })
      .getByRole("radio", { name: shop.t("survey.no") })
      .check();
    await shop.shop.getByRole("button", { name: shop.t("details.next") }).click();
    await expect(shop.stepHeading(shop.t("payment.heading"))).toBeVisible();

    await shop.shop.getByRole("radio", { name: /Hosted payment page/ }).check();
    await shop.payButton().click();
    // The provider's page (served by the mock on its own origin).
    await page.waitForURL(/\/__mock\/pay\/pay_/);
    await page.locator('button[value="success"]').click();

    // Back on the host page: parameters removed, payment confirmed, tickets shown.
    await shop.expectConfirmation(1);
    // The host's own parameter stays; the widget's are gone.
    expect(new URL(page.url()).search).toBe("?lang=en-GB");
    await expect(shop.log()).toContainText("onCheckoutComplete");
    expect(shop.cspViolations).toEqual([]);
  });

  test("switching the language keeps the cart and the typed details", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.open();
    await shop.chooseEvent("Family Theatre");
    await shop.addTickets("Category 2", "Adult", 1);
    await shop.addToCart();
    await shop.toDetails();
    const first = shop.shop.getByLabel(shop.t("details.firstName"));
    await first.fill("Anna");
    await first.focus();
    await page.getByLabel("Language").selectOption("fr-CH");
    const fr = new ShopPage(page, "fr-CH");
    await expect(fr.stepHeading(fr.t("details.heading"))).toBeVisible();
    await expect(fr.shop.getByLabel(fr.t("details.firstName"))).toHaveValue("Anna");
    await expect(fr.shop.getByLabel(fr.t("details.firstName"))).toBeFocused();
  });
});
