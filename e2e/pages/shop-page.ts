import { expect, type Locator, type Page, test } from "@playwright/test";
import { type TextLocale, tx, txPattern, txStartPattern } from "./texts";

/** The dev page's host controls and the embedded shop, located by role and by the widget's own texts. */
export class ShopPage {
  readonly shop: Locator;
  readonly cspViolations: string[] = [];

  constructor(
    readonly page: Page,
    readonly locale: TextLocale = "en-GB",
  ) {
    this.shop = page.locator("#tickets .entrada-shop");
    page.on("console", (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) this.cspViolations.push(message.text());
    });
  }

  t(key: string, values: Record<string, string | number> = {}) {
    return tx(key, values, this.locale);
  }

  /** The build under test: `npm` (sources, the page's React) or `script` (dist/script as shipped, Preact). */
  get build(): string {
    return String(test.info().project.metadata.build ?? "npm");
  }

  /**
   * The page's query: the language, the harshest host CSS (`hostile=max`, dev/hostile.css) and, on the
   * script-tag project, `build=script`.
   */
  query(extra = "") {
    return `?lang=${this.locale}&hostile=max${this.build === "npm" ? "" : `&build=${this.build}`}${extra}`;
  }

  async open(query = this.query()) {
    await this.page.goto(`/${query}`);
    await expect(this.stepHeading(this.t("events.heading"))).toBeVisible();
  }

  stepHeading(name: string | RegExp) {
    return this.shop.getByRole("heading", { level: 2, name });
  }

  async chooseEvent(name: string) {
    await this.shop
      .getByRole("button", { name: this.t("events.chooseFor", { name }) })
      .first()
      .click();
    await expect(this.stepHeading(name)).toBeFocused();
  }

  async addTickets(group: string, article: string, count: number) {
    const assortment = this.shop.getByRole("group", { name: group });
    for (let i = 0; i < count; i += 1) {
      await assortment.getByRole("button", { name: this.t("event.more", { name: article }) }).click();
    }
  }

  async addToCart() {
    await this.shop.getByRole("button", { name: this.t("event.add") }).click();
    await expect(this.stepHeading(this.t("cart.heading"))).toBeFocused();
  }

  async toDetails() {
    await this.shop.getByRole("button", { name: this.t("cart.next") }).click();
    await expect(this.stepHeading(this.t("details.heading"))).toBeVisible();
  }

  async fillBuyer(first: string, last: string, email: string) {
    await this.shop.getByLabel(this.t("details.firstName")).fill(first);
    await this.shop.getByLabel(this.t("details.lastName")).fill(last);
    await this.shop.getByLabel(this.t("details.email"), { exact: true }).fill(email);
    await this.shop.getByRole("button", { name: this.t("details.next") }).click();
    await expect(this.stepHeading(this.t("payment.heading"))).toBeVisible();
  }

  payButton() {
    return this.shop.getByRole("button", { name: txPattern("payment.pay", this.locale) });
  }

  async payByCard(number: string) {
    await this.shop.getByRole("radio", { name: /card/i }).check();
    await this.shop.getByLabel(this.t("payment.card")).fill(number);
    await this.payButton().click();
  }

  async expectConfirmation(tickets: number) {
    await expect(this.stepHeading(this.t("confirmation.heading"))).toBeVisible();
    await expect(this.shop.getByRole("img", { name: txPattern("confirmation.qr", this.locale) })).toHaveCount(
      tickets,
    );
    await expect(
      this.shop.getByRole("link", { name: txStartPattern("confirmation.pdf", this.locale) }),
    ).toHaveCount(tickets);
    await expect(this.shop.getByRole("link", { name: this.t("confirmation.receipt") })).toBeVisible();
  }

  log() {
    return this.page.locator("#log");
  }
}
