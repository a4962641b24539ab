import { expect, type Locator, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

/** The message has the focus and is inside the viewport (at least partly: it may be taller than the screen). */
async function expectFocusedAndInView(alert: Locator) {
  await expect(alert).toBeFocused();
  await expect(alert).toBeInViewport();
}

async function toPayment(shop: ShopPage) {
  await shop.open();
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
}

test.describe("after an error, the focus moves to the message, in view", () => {
  test.beforeEach(async ({ page }) => {
    // A short phone screen: the message would otherwise be below the fold.
    await page.setViewportSize({ width: 375, height: 600 });
  });

  test("a declined card, paid with a click and then with Enter", async ({ page }) => {
    const shop = new ShopPage(page);
    await toPayment(shop);
    await shop.payByCard("4000000000000002");
    const alert = shop.shop.getByRole("alert");
    await expect(alert).toContainText(shop.t("errors.payment-declined"));
    await expectFocusedAndInView(alert);
    // The host page's onError got the SDK's problem, with the log id the buyer sees as the reference.
    const reported = page.locator("#log li").filter({ hasText: "onError" }).first();
    await expect(reported).toContainText('"kind":"problem","slug":"payment-declined","status":402');
    const logId = /"logId":"([^"]+)"/.exec((await reported.textContent()) ?? "")?.[1] ?? "no log id";
    await expect(alert).toContainText(shop.t("errors.reference", { id: logId }));

    // Again from the card field with Enter: the same message, focused again.
    const card = shop.shop.getByLabel(shop.t("payment.card"));
    await card.fill("4000 0000 0000 0002");
    await card.press("Enter");
    await expect(shop.payButton()).toBeEnabled();
    await expectFocusedAndInView(shop.shop.getByRole("alert"));
  });

  test("the network is down when paying", async ({ page }) => {
    const shop = new ShopPage(page);
    await toPayment(shop);
    const api = (await page.locator('meta[name="entrada-api"]').getAttribute("content")) ?? "";
    await page.route(`${api}/**`, (route) => route.abort("internetdisconnected"));
    await shop.payByCard("4242424242424242");
    const alert = shop.shop.getByRole("alert");
    await expect(alert).toContainText(shop.t("errors.network"));
    await expectFocusedAndInView(alert);
    await expect(page.locator("#log li").filter({ hasText: "onError" }).first()).toContainText(
      '"kind":"network"',
    );
    // Back online: "Try again" pays.
    await page.unroute(`${api}/**`);
    await alert.getByRole("button", { name: shop.t("errors.retry") }).click();
    await shop.expectConfirmation(1);
  });

  test("the hold runs out while the buyer types their details", async ({ page }) => {
    // The browser's clock, driven by the test: the countdown reaches zero without waiting 15 minutes.
    await page.clock.install();
    const shop = new ShopPage(page);
    await shop.open();
    await shop.chooseEvent("Family Theatre");
    await shop.addTickets("Category 2", "Adult", 1);
    await shop.addToCart();
    await shop.toDetails();
    const first = shop.shop.getByLabel(shop.t("details.firstName"));
    await first.fill("Anna");
    await page.clock.fastForward("20:00");
    const alert = shop.shop.getByRole("alert").filter({ hasText: shop.t("errors.hold-expired") });
    await expectFocusedAndInView(alert);
    // Nothing typed is lost, and the way forward is right there.
    await expect(first).toHaveValue("Anna");
    await expect(alert.getByRole("button", { name: shop.t("errors.rebook") })).toBeVisible();
  });
});
