import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";
import { txPattern } from "../pages/texts";

/**
 * Two widgets on one page (`?second=1`), on the npm build (React's `identifierPrefix`) and on the script-tag
 * build (Preact, whose own ids restart at `P0-0` in every root): separate state, no id used twice, and every
 * label and ARIA reference points at an element of its own widget.
 */
test("two widgets on one page keep separate state and share no ids", async ({ page }) => {
  const shop = new ShopPage(page);
  await shop.open(shop.query("&second=1"));
  const second = page.locator("#tickets-2 .entrada-shop");
  const catalogue = shop.t("events.heading");
  await expect(second.getByRole("heading", { level: 2, name: catalogue })).toBeVisible();

  const references = () =>
    page.evaluate(() => {
      const ids = [...document.querySelectorAll(".entrada-shop [id]")].map((e) => e.id);
      const broken: string[] = [];
      for (const element of document.querySelectorAll(
        ".entrada-shop label[for], .entrada-shop [aria-labelledby], .entrada-shop [aria-describedby], .entrada-shop [aria-controls]",
      )) {
        const refs = ["for", "aria-labelledby", "aria-describedby", "aria-controls"].flatMap((name) =>
          (element.getAttribute(name) ?? "").split(/\s+/).filter(Boolean),
        );
        for (const id of refs) {
          const targets = document.querySelectorAll(`[id="${CSS.escape(id)}"]`);
          const own =
            targets.length === 1 && targets[0]?.closest(".entrada-shop") === element.closest(".entrada-shop");
          if (!own) broken.push(`${element.tagName.toLowerCase()} → ${id} (${targets.length})`);
        }
      }
      return { ids: ids.length, unique: new Set(ids).size, references: broken };
    });

  // Both on the catalogue (the same components in both roots).
  const onCatalogue = await references();
  expect(onCatalogue.ids).toBeGreaterThanOrEqual(4);
  expect(onCatalogue.unique).toBe(onCatalogue.ids);
  expect(onCatalogue.references).toEqual([]);

  // The first widget to its cart; the second stays on the catalogue without one.
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  await expect(second.getByRole("heading", { level: 2 })).toHaveText(catalogue);
  await expect(second.getByRole("button", { name: txPattern("events.cart_other") })).toHaveCount(0);
  await expect(shop.shop.getByRole("heading", { level: 2 })).toHaveText(shop.t("cart.heading"));
  const withCart = await references();
  expect(withCart.unique).toBe(withCart.ids);
  expect(withCart.references).toEqual([]);
});
