import { expect, type Page, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

/**
 * Every action that removes or replaces the focused control hands the focus to its natural successor (WCAG 2.4.3,
 * 2.4.7): the voucher field's actions by keyboard alone, in both themes. After each, `document.activeElement` is in
 * the widget (never `<body>`), it is the expected control, and its focus is visible (`:focus-visible` with an
 * outline).
 */
async function focused(page: Page) {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (active === null || active === document.body) return { where: "body" };
    const style = getComputedStyle(active);
    return {
      where: active.closest(".entrada-shop") === null ? "outside" : "widget",
      name: active.getAttribute("aria-label") ?? active.getAttribute("name") ?? active.textContent?.trim(),
      visible:
        active.matches(":focus-visible") && style.outlineStyle !== "none" && style.outlineWidth !== "0px",
    };
  });
}

for (const theme of ["light", "dark"] as const) {
  test(`voucher field by keyboard: the focus follows every replaced control (${theme} theme)`, async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await shop.open();
    await page.locator("#theme").selectOption(theme);
    await shop.chooseEvent("Family Theatre");
    await shop.addTickets("Category 1", "Adult", 1);
    await shop.addToCart();
    const field = shop.shop.getByLabel(shop.t("voucher.label"));
    const removeName = shop.t("voucher.remove", { code: "WINTER10" });
    const discount = shop.shop.getByRole("row", { name: /^Discount WINTER10/ });

    // Enter in the field with a valid code: the field goes, "Remove code" takes the focus.
    await field.focus();
    await page.keyboard.type("winter10");
    await page.keyboard.press("Enter");
    await expect(discount).toBeVisible();
    await expect.poll(() => focused(page)).toEqual({ where: "widget", name: removeName, visible: true });

    // Enter on "Remove code": the button goes, the field takes the focus.
    await page.keyboard.press("Enter");
    await expect(discount).toBeHidden();
    await expect.poll(() => focused(page)).toEqual({ where: "widget", name: "voucher", visible: true });

    // A refused code by Enter in the field: the focus stays in the field, tied to the message.
    await page.keyboard.type("NOPE");
    await page.keyboard.press("Enter");
    await expect(
      shop.shop.getByRole("alert").filter({ hasText: shop.t("errors.voucher-unknown") }),
    ).toBeVisible();
    await expect.poll(() => focused(page)).toEqual({ where: "widget", name: "voucher", visible: true });
    await expect(field).toHaveAttribute("aria-invalid", "true");

    // Enter on "Apply" with a valid code: the button goes, "Remove code" takes the focus.
    await field.fill("");
    await page.keyboard.type("winter10");
    await page.keyboard.press("Tab");
    await expect.poll(() => focused(page)).toMatchObject({ name: shop.t("voucher.apply") });
    await page.keyboard.press("Enter");
    await expect(discount).toBeVisible();
    await expect.poll(() => focused(page)).toEqual({ where: "widget", name: removeName, visible: true });
  });
}
