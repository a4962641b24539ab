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

    // The ticket link is the API's signed link: a plain anchor opening in a new tab, no session token needed.
    const pdfLink = shop.shop.getByRole("link", { name: shop.t("confirmation.pdf", { n: 1 }) });
    await expect(pdfLink).toHaveAttribute("target", "_blank");
    const href = (await pdfLink.getAttribute("href")) ?? "";
    expect(href).toMatch(/\/assets\/v1\/tickets\/tkt_[^?]+\.pdf\?expires=\d+&signature=[\w-]{43}$/);
    const [opened] = await Promise.all([
      page.context().waitForEvent("request", (request) => request.url() === href),
      pdfLink.click(),
    ]);
    // The browser itself fetched it (a navigation, not the widget's script), without a bearer token.
    expect(opened.isNavigationRequest()).toBe(true);
    expect(await opened.headerValue("authorization")).toBeNull();
    // Anyone holding the link (a mail client, another device) gets the PDF, without any token.
    const pdf = await page.request.get(href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    // Tampering with the signature is refused: the link is the credential for that one asset only.
    const forged = await page.request.get(`${href.slice(0, -1)}${href.endsWith("A") ? "B" : "A"}`);
    expect(forged.status()).toBe(401);
    const receipt = shop.shop.getByRole("link", { name: shop.t("confirmation.receipt") });
    expect(await receipt.getAttribute("href")).toMatch(/\?expires=\d+&signature=[\w-]{43}$/);

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
    expect(new URL(page.url()).search).toBe(shop.query());
    await expect(shop.log()).toContainText("onCheckoutComplete");
    expect(shop.cspViolations).toEqual([]);
  });

  test("with the host's measurement id, the visitor's GA4 ids from the _ga cookies reach the purchase webhook", async ({
    page,
    baseURL,
  }) => {
    const ids = { ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" };
    await page.context().addCookies([
      { name: "_ga", value: `GA1.1.${ids.ga4ClientId}`, url: baseURL ?? "" },
      {
        name: "_ga_E2ETEST1",
        value: `GS2.1.s${ids.ga4SessionId}$o3$g1$t1764583300$j0$l0$h0`,
        url: baseURL ?? "",
      },
    ]);
    const shop = new ShopPage(page);
    await shop.open(shop.query("&ga4=G-E2ETEST1"));
    await shop.chooseEvent("Family Theatre");
    await shop.addTickets("Category 2", "Adult", 1);
    await shop.addToCart();
    await shop.toDetails();
    await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
    await shop.payByCard("4242 4242 4242 4242");
    await shop.expectConfirmation(1);
    const completed = shop.log().getByText("onCheckoutComplete");
    const order = /"order":"(ord_\w+)"/.exec((await completed.textContent()) ?? "")?.[1];
    // The order the API returned carries the ids, and so does its cart.completed payload.
    await expect(completed).toContainText(JSON.stringify({ analytics: ids }).slice(1, -1));
    const api = (await page.locator('meta[name="entrada-api"]').getAttribute("content")) ?? "";
    const events = (await (await page.request.get(`${api}/__mock/events?type=cart.completed`)).json()) as {
      items: Array<{ data: { order: { id: string; analytics?: unknown } } }>;
    };
    expect(events.items.find((e) => e.data.order.id === order)?.data.order.analytics).toEqual(ids);
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
