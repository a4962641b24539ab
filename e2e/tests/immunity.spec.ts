import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

/**
 * The widget under the harshest host CSS (dev/hostile.css: `html { font-size: 62.5% }`, `* { font-size: 30px
 * !important }`, `div { padding: 40px }`, `svg path { fill: lime }`, `[role=alert] { display: none }`...):
 * computed styles are the widget's own, on the npm build and on the script-tag build.
 */
test("host rules do not reach the widget: sizes, wrapper, QR colours, alerts", async ({ page }) => {
  const shop = new ShopPage(page);
  await shop.open();
  // The host rules are really there: the host's own text is 30 px.
  expect(await page.locator("#controls-title").evaluate((e) => getComputedStyle(e).fontSize)).toBe("30px");

  // Sizes come from the widget's font-size token (16 px), not from the host's root or `*` rules.
  const style = (selector: string, ...names: string[]) =>
    shop.shop
      .locator(selector)
      .first()
      .evaluate((e, props) => {
        const s = getComputedStyle(e);
        return Object.fromEntries(props.map((p) => [p, s.getPropertyValue(p)]));
      }, names);
  expect(await style(":scope", "font-size", "letter-spacing", "word-spacing")).toEqual({
    "font-size": "16px",
    "letter-spacing": "normal",
    "word-spacing": "0px",
  });
  expect(await style("h2", "font-size", "text-transform", "border-bottom-style")).toEqual({
    "font-size": "24px",
    "text-transform": "none",
    "border-bottom-style": "none",
  });
  const button = await style(".entrada-shop__button--primary", "font-size", "min-height", "padding-top");
  expect(button).toEqual({ "font-size": "16px", "min-height": "44px", "padding-top": "8px" });
  expect(await style("p", "color", "text-transform")).not.toMatchObject({ "text-transform": "uppercase" });
  // The wrapper mount() adds takes no host `div` rule.
  const wrapper = await page.locator("#tickets > .entrada-shop-host").evaluate((e) => {
    const s = getComputedStyle(e);
    return [s.paddingTop, s.marginTop, s.borderTopStyle, s.display];
  });
  expect(wrapper).toEqual(["0px", "0px", "none", "block"]);
  // So do the widget's own divs.
  expect(await style(".entrada-shop__card-body", "border-top-style", "margin-top")).toEqual({
    "border-top-style": "none",
    "margin-top": "0px",
  });

  // A purchase to the QR codes: black modules on a white plate, whatever `svg path { fill: lime }` says.
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  await shop.payByCard("4242424242424242");
  await shop.expectConfirmation(1);
  const qr = await shop.shop.locator(".entrada-shop__qr").evaluate((svg) => {
    const path = svg.querySelector("path") as SVGPathElement;
    const rect = svg.querySelector("rect") as SVGRectElement;
    const box = svg.getBoundingClientRect();
    return {
      modules: getComputedStyle(path).fill,
      moduleStroke: getComputedStyle(path).stroke,
      plate: getComputedStyle(rect).fill,
      width: Math.round(box.width),
    };
  });
  expect(qr).toEqual({
    modules: "rgb(0, 0, 0)",
    moduleStroke: "none",
    plate: "rgb(255, 255, 255)",
    width: 224,
  });
  // The ticket code wraps at its separators only: each part (a text node between <wbr>s) is on one line.
  const code = shop.shop.locator(".entrada-shop__quicode");
  const parts = await code.evaluate((e) =>
    [...e.childNodes]
      .filter((node) => node.nodeType === Node.TEXT_NODE)
      .map((node) => {
        const range = document.createRange();
        range.selectNodeContents(node);
        return range.getClientRects().length;
      }),
  );
  expect(parts.length).toBeGreaterThanOrEqual(3);
  expect(parts.every((lines) => lines === 1)).toBe(true);
  expect(shop.cspViolations).toEqual([]);
});

test("an error stays visible although the host hides [role=alert]", async ({ page }) => {
  const shop = new ShopPage(page);
  await shop.open();
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  await shop.payByCard("4000000000000002");
  await expect(shop.shop.getByRole("alert")).toBeVisible();
});

test("without the CSP nonce, the console says the stylesheet was blocked and how to fix it", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && message.text().startsWith("EntradaShop:")) errors.push(message.text());
  });
  await shop.open(shop.query("&nonce=off"));
  await expect.poll(() => errors.length).toBe(1);
  expect(errors[0]).toContain("stylesheet was blocked");
  expect(errors[0]).toContain("`nonce`");
  expect(errors[0]).toContain('<link rel="stylesheet"');
  // It is the CSP that blocked it (and the widget still works, unstyled).
  expect(shop.cspViolations.length).toBeGreaterThan(0);
  await shop.chooseEvent("Family Theatre");
  // Said once per page, not once per step or per sheet.
  await shop.addTickets("Category 2", "Adult", 1);
  await shop.addToCart();
  expect(errors).toHaveLength(1);
});
