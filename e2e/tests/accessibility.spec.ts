import { readFileSync } from "node:fs";
import { expect, type Page, test } from "@playwright/test";
import {
  applyTextSpacing,
  clippedText,
  edgelessControls,
  expectNone,
  horizontalOverflow,
  lowNonTextContrast,
  moving,
  nonTextFigures,
  obscuredWhenFocused,
  undersizedTargets,
} from "../pages/a11y";
import { axeViolations } from "../pages/axe";
import { ShopPage } from "../pages/shop-page";

/**
 * WCAG 2.2 AA in Chromium, on every step of a purchase (the catalogue, an event with tickets chosen, the cart, the
 * buyer's details, the payment, a declined card, the confirmation), on the npm and the script-tag builds, on the
 * hostile host page. packages/shop-widget/ACCESSIBILITY.md maps each criterion to the test here that checks it.
 */

type Visit = (step: string) => Promise<void>;

/** A whole purchase, calling `visit` in each state the buyer sees. */
async function walk(shop: ShopPage, visit: Visit, query?: string) {
  await shop.open(query);
  await visit("events");
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 1", "Adult", 2);
  await visit("event");
  await shop.addToCart();
  await visit("cart");
  await shop.toDetails();
  await shop.shop.getByLabel(shop.t("details.firstName")).fill("Anna");
  await shop.shop.getByLabel(shop.t("details.lastName")).fill("Muster");
  await shop.shop.getByLabel(shop.t("details.email"), { exact: true }).fill("anna@example.ch");
  await visit("details");
  await shop.shop.getByRole("button", { name: shop.t("details.next") }).click();
  await expect(shop.stepHeading(shop.t("payment.heading"))).toBeVisible();
  await shop.shop.getByRole("radio", { name: /card/i }).check();
  await visit("payment");
  await shop.payByCard("4000000000000002");
  await expect(shop.shop.getByRole("alert")).toContainText(shop.t("errors.payment-declined"));
  await visit("payment-declined");
  await shop.shop.getByLabel(shop.t("payment.card")).fill("4242424242424242");
  await shop.payButton().click();
  await shop.expectConfirmation(2);
  await visit("confirmation");
}

/** From the catalogue to the details step with one adult ticket of Family Theatre. */
async function toDetailsWithOneTicket(shop: ShopPage, query?: string) {
  await shop.open(query);
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 1", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
}

async function inBothThemes(page: Page, shop: ShopPage, check: (theme: string) => Promise<void>) {
  for (const theme of ["light", "dark"] as const) {
    await page.locator("#theme").selectOption(theme);
    await expect(shop.shop).toHaveAttribute("data-theme", theme);
    // Buttons fade to the theme's colours: measure them once the fade has ended, not halfway.
    await page.evaluate(() => Promise.all(document.getAnimations().map((animation) => animation.finished)));
    await check(theme);
  }
  await page.locator("#theme").selectOption("light");
}

test.describe("WCAG 2.2 AA on every step", () => {
  test.setTimeout(180_000);

  test("axe (WCAG 2.0–2.2 A/AA rules, contrast), non-text contrast 1.4.11 and target size 2.5.8, light and dark, at 1280 and 375 px", async ({
    page,
  }) => {
    for (const [width, height] of [
      [1280, 800],
      [375, 740],
    ] as const) {
      await page.setViewportSize({ width, height });
      const shop = new ShopPage(page);
      await walk(shop, (step) =>
        inBothThemes(page, shop, async (theme) => {
          if (width === 1280) await expectNone(axeViolations(page), `axe, ${step}, ${theme}`);
          if (width === 1280)
            await expectNone(lowNonTextContrast(shop), `non-text contrast 1.4.11, ${step}, ${theme}`);
          await expectNone(undersizedTargets(shop), `targets under 24×24 px, ${step}, ${theme}, ${width} px`);
        }),
      );
    }
  });

  test("the statement's non-text contrast figures are the ones the check computes, light and dark", async ({
    page,
  }) => {
    const statement = readFileSync(
      new URL("../../packages/shop-widget/ACCESSIBILITY.md", import.meta.url),
      "utf8",
    ).replace(/\s+/g, " ");
    const shop = new ShopPage(page);
    await shop.open();
    await inBothThemes(page, shop, async (theme) => {
      for (const figure of await nonTextFigures(shop)) expect(statement, theme).toContain(figure);
    });
  });

  test("focus not obscured 2.4.11: every element Tab reaches is in view, at 375 and 1280 px", async ({
    page,
  }) => {
    for (const [width, height] of [
      [375, 600],
      [1280, 720],
    ] as const) {
      await page.setViewportSize({ width, height });
      const shop = new ShopPage(page);
      await walk(shop, (step) =>
        expectNone(obscuredWhenFocused(page, shop), `hidden when focused, ${step}, ${width} px`),
      );
    }
  });

  test("reflow 1.4.10 at 320 CSS px (1280 px at 400 % zoom): no sideways scrolling on any step", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 256 });
    const shop = new ShopPage(page);
    await walk(shop, (step) => expectNone(horizontalOverflow(shop), `wider than 320 px, ${step}`));
  });

  test("text spacing 1.4.12: nothing clipped with WCAG's spacing, at 1280 and 320 px", async ({ page }) => {
    for (const [width, height] of [
      [1280, 800],
      [320, 640],
    ] as const) {
      await page.setViewportSize({ width, height });
      const shop = new ShopPage(page);
      await walk(shop, async (step) => {
        if (step === "events") await applyTextSpacing(page);
        // The spacing reached the widget.
        expect(
          await shop.shop
            .locator("h2")
            .first()
            .evaluate((e) => getComputedStyle(e).letterSpacing),
        ).not.toBe("normal");
        await expectNone(clippedText(shop), `clipped with text spacing, ${step}, ${width} px`);
        await expectNone(
          horizontalOverflow(shop),
          `wider than the viewport with text spacing, ${step}, ${width} px`,
        );
      });
    }
  });

  test("forced colours and reduced motion: controls keep their edges and focus ring, nothing moves", async ({
    page,
  }) => {
    await page.emulateMedia({ forcedColors: "active", reducedMotion: "reduce" });
    const shop = new ShopPage(page);
    await walk(shop, async (step) => {
      await expectNone(edgelessControls(shop), `controls without an edge in forced colours, ${step}`);
      await expectNone(moving(shop), `transitions or animations with reduced motion, ${step}`);
      const focused = shop.shop.locator("button:visible").first();
      await focused.focus();
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Tab");
      const ring = await page.evaluate(() => {
        const s = getComputedStyle(document.activeElement as Element);
        return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
      });
      expect(ring.style, `focus ring in forced colours, ${step}`).not.toBe("none");
      expect(ring.width).toBeGreaterThanOrEqual(2);
    });
    // The QR codes stay black on white (scannable) when the system forces its colours.
    const qr = shop.shop.getByRole("img", { name: /QR/ }).first();
    expect(
      await qr.evaluate((svg) =>
        [".entrada-shop__qr-plate", ".entrada-shop__qr-code"].map(
          (part) => getComputedStyle(svg.querySelector(part) as Element).fill,
        ),
      ),
    ).toEqual(["rgb(255, 255, 255)", "rgb(0, 0, 0)"]);
  });

  test("step changes, cart changes and errors are announced (live regions)", async ({ page }) => {
    const shop = new ShopPage(page);
    await shop.open();
    const stepNow = shop.shop.locator("[data-entrada-step-now]");
    const status = shop.shop.getByRole("status");
    await expect(stepNow).toHaveAttribute("aria-live", "polite");
    // Nothing is said on the first render: the host page is not interrupted.
    await expect(stepNow).toHaveText("");
    await shop.chooseEvent("Family Theatre");
    await expect(stepNow).toHaveText(
      `${shop.t("shop.progress", { current: 2, total: 6 })}: ${shop.t("steps.event")}`,
    );
    await shop.addTickets("Category 1", "Adult", 1);
    await shop.addToCart();
    await expect(stepNow).toHaveText(
      `${shop.t("shop.progress", { current: 3, total: 6 })}: ${shop.t("steps.cart")}`,
    );
    // The cart change is said in its own polite region, not replaced by the step.
    await expect(status).toContainText(/Added to your cart\. Total CHF/);
    await shop.toDetails();
    await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
    await expect(stepNow).toHaveText(
      `${shop.t("shop.progress", { current: 5, total: 6 })}: ${shop.t("steps.payment")}`,
    );
    await shop.payByCard("4000000000000002");
    // An error is an alert (an assertive live region) and takes the focus.
    const alert = shop.shop.getByRole("alert");
    await expect(alert).toContainText(shop.t("errors.payment-declined"));
    await expect(alert).toBeFocused();
    // Invalid fields: the summary is an alert, each field says why (aria-invalid + aria-describedby).
    await shop.shop.getByRole("button", { name: shop.t("payment.back") }).click();
    await shop.shop.getByLabel(shop.t("details.email"), { exact: true }).fill("anna@");
    await shop.shop.getByRole("button", { name: shop.t("details.next") }).click();
    await expect(shop.shop.getByRole("alert")).toHaveText(shop.t("validation.summary_one", { count: 1 }));
    const email = shop.shop.getByLabel(shop.t("details.email"), { exact: true });
    await expect(email).toBeFocused();
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAccessibleDescription(shop.t("validation.email"));
  });

  test("redundant entry 3.3.7: a signed-in member's details are prefilled, the locked address read-only; nothing typed twice", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await toDetailsWithOneTicket(shop, shop.query("&member=1"));
    const email = shop.shop.getByLabel(shop.t("details.email"), { exact: true });
    await expect(shop.shop.getByLabel(shop.t("details.firstName"))).toHaveValue("Anna");
    await expect(email).toHaveValue("anna.member@example.ch");
    await expect(email).toHaveAttribute("readonly", "");
    await expect(email).toBeEnabled();
    await expect(email).toHaveAccessibleDescription(shop.t("details.locked"));
    await expect(shop.shop.getByText(shop.t("details.locked"))).toBeVisible();
    await shop.shop.getByLabel(shop.t("details.phone"), { exact: false }).fill("+41791234567");
    await shop.shop.getByRole("button", { name: shop.t("details.next") }).click();
    await expect(shop.stepHeading(shop.t("payment.heading"))).toBeVisible();
    // Back and forth between the steps keeps what was entered.
    await shop.shop.getByRole("button", { name: shop.t("payment.back") }).click();
    await expect(shop.shop.getByLabel(shop.t("details.phone"), { exact: false })).toHaveValue("+41791234567");
    await shop.shop.getByRole("button", { name: shop.t("details.next") }).click();
    await shop.payByCard("4242424242424242");
    await shop.expectConfirmation(1);
    await expect(shop.shop).toContainText("anna.member@example.ch");
  });

  test("accessible authentication 3.3.8: no test to pass; fields take pasting and autofill", async ({
    page,
  }) => {
    const shop = new ShopPage(page);
    await toDetailsWithOneTicket(shop);
    const autocomplete = await shop.shop
      .locator("input")
      .evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).autocomplete));
    expect(autocomplete).toEqual(["given-name", "family-name", "email", "tel", "organization"]);
    await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
    const card = shop.shop.getByLabel(shop.t("payment.card"));
    await expect(card).toHaveAttribute("autocomplete", "cc-number");
    // Pasting is never blocked (a paste event the page cancels would be).
    const cancelled = await card.evaluate((input) => {
      const data = new DataTransfer();
      data.setData("text/plain", "4242 4242 4242 4242");
      const event = new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true });
      input.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(cancelled).toBe(false);
    // No CAPTCHA, puzzle or code to transcribe anywhere in the purchase.
    await expect(shop.shop.locator("iframe, canvas, [class*=captcha i]")).toHaveCount(0);
  });
});
