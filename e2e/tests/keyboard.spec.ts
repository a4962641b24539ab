import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

/** Tab forward until `target` has focus (a bounded number of presses), as a keyboard user would. */
async function tabTo(
  page: import("@playwright/test").Page,
  target: import("@playwright/test").Locator,
  max = 80,
) {
  for (let i = 0; i < max; i += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press("Tab");
  }
  throw new Error("not reachable by Tab");
}

test("a whole purchase by keyboard alone, narrow viewport (320 px)", async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 800 });
  const shop = new ShopPage(page);
  await shop.open();
  await tabTo(
    page,
    shop.shop.getByRole("button", { name: shop.t("events.chooseFor", { name: "Family Theatre" }) }).first(),
  );
  await page.keyboard.press("Enter");
  await expect(shop.stepHeading("Family Theatre")).toBeFocused();
  await tabTo(page, shop.shop.getByRole("button", { name: shop.t("event.more", { name: "Adult" }) }).first());
  await page.keyboard.press("Enter");
  await tabTo(page, shop.shop.getByRole("button", { name: shop.t("event.add") }));
  await page.keyboard.press("Enter");
  await expect(shop.stepHeading(shop.t("cart.heading"))).toBeFocused();
  await tabTo(page, shop.shop.getByRole("button", { name: shop.t("cart.next") }));
  await page.keyboard.press("Enter");
  await expect(shop.stepHeading(shop.t("details.heading"))).toBeFocused();
  await tabTo(page, shop.shop.getByLabel(shop.t("details.firstName")));
  await page.keyboard.type("Anna");
  await page.keyboard.press("Tab");
  await page.keyboard.type("Muster");
  await page.keyboard.press("Tab");
  await page.keyboard.type("anna@example.ch");
  await tabTo(page, shop.shop.getByRole("button", { name: shop.t("details.next") }));
  await page.keyboard.press("Enter");
  await expect(shop.stepHeading(shop.t("payment.heading"))).toBeFocused();
  await tabTo(page, shop.shop.getByLabel(shop.t("payment.card")));
  await page.keyboard.type("4242424242424242");
  await page.keyboard.press("Enter");
  await expect(shop.stepHeading(shop.t("confirmation.heading"))).toBeFocused();
  // Nothing in the widget overflows the narrow viewport horizontally.
  const box = await shop.shop.evaluate((element) => {
    const edge = Math.min(320, element.getBoundingClientRect().right) + 0.5;
    const wide = [...element.querySelectorAll("*")].filter((e) => e.getBoundingClientRect().right > edge);
    return {
      scroll: element.scrollWidth,
      client: element.clientWidth,
      wide: wide.map((e) => `${e.tagName}.${e.getAttribute("class") ?? ""}`),
    };
  });
  expect(box.wide).toEqual([]);
  expect(box.scroll).toBeLessThanOrEqual(box.client);
});
