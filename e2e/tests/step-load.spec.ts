import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

/**
 * A later step's code that does not arrive (a dropped connection; a deploy that removed the old chunk): the buyer
 * sees the translated error with "Try again" in place of an endless "Loading…", and the retry loads it — in a real
 * browser, whose module loader must fetch a failed dynamic import again. npm build: the event step's module from the
 * dev server; script-tag build: the chunk of the later steps.
 */
test("a step chunk that fails once: an error with Try again, then the step", async ({ page }) => {
  const shop = new ShopPage(page);
  let aborted = 0;
  await page.route(/\/(src\/ui\/steps\/EventStep\.tsx|chunks\/steps-[\w-]+\.js)(\?|$)/, (route) => {
    if (aborted > 0) return route.continue();
    aborted += 1;
    return route.abort("connectionreset");
  });
  await shop.open();
  await shop.shop
    .getByRole("button", { name: shop.t("events.chooseFor", { name: "Family Theatre" }) })
    .first()
    .click();
  const alert = shop.shop.getByRole("alert");
  await expect(alert).toContainText(shop.t("errors.network"));
  await expect(shop.shop.getByText(shop.t("shop.loading"))).toHaveCount(0);
  expect(aborted).toBe(1);
  await shop.shop.getByRole("button", { name: shop.t("errors.retry") }).click();
  await expect(shop.stepHeading("Family Theatre")).toBeVisible();
  await expect(alert).toHaveCount(0);
});
