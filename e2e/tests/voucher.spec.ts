import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient } from "@entrada/sdk";
import { ga4FromWebhook } from "@entrada/sdk/conversions";
import { verifyWebhook } from "@entrada/sdk/webhooks";
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "../pages/axe";
import { ShopPage } from "../pages/shop-page";

/** An organiser's webhook receiver (port 0): the raw bodies and headers of what the API delivers. */
async function webhookReceiver() {
  const received: Array<{ body: string; headers: IncomingHttpHeaders }> = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ body: Buffer.concat(chunks).toString("utf8"), headers: request.headers });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/entrada`,
    received,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

interface Ga4Params {
  transaction_id: string;
  value: number;
  currency: string;
  coupon?: string;
  items: unknown[];
}

test("a purchase with a voucher code: the discount is shown, charged, in the purchase webhook, and the browser's and the server's GA4 purchase agree", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  await shop.open();
  // The organiser subscribes to the purchase event (server to server, with the API client's credentials).
  const receiver = await webhookReceiver();
  const api = (await page.locator('meta[name="entrada-api"]').getAttribute("content")) ?? "";
  const organiser = createClient({ baseUrl: api, clientId: "entrada-demo", clientSecret: "demo-secret" });
  const { data: subscription } = await organiser.webhooks.createWebhookSubscription.orThrow({
    body: { url: receiver.url, eventTypes: ["cart.completed"], culture: "en-GB" },
  });
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 1", "Adult", 2);
  await shop.addToCart();
  const total = shop.shop.getByRole("row", { name: /^Total/ });
  await expect(total).toContainText("CHF 110.00");

  // A refused code says why (translated) and leaves the cart as it was.
  const field = shop.shop.getByLabel(shop.t("voucher.label"));
  const apply = shop.shop.getByRole("button", { name: shop.t("voucher.apply") });
  await field.fill("NOPE");
  await apply.click();
  await expect(
    shop.shop.getByRole("alert").filter({ hasText: shop.t("errors.voucher-unknown") }),
  ).toBeVisible();
  await expect(total).toContainText("CHF 110.00");
  await expectNoAxeViolations(page);
  // A malformed one (a control character) never leaves the browser.
  await field.fill("WIN\u0007TER10");
  await apply.click();
  await expect(shop.shop.getByText(shop.t("voucher.malformed"))).toBeVisible();

  await field.fill("winter10");
  await apply.click();
  await expect(shop.shop.getByRole("row", { name: /^Discount WINTER10/ })).toContainText("CHF 11.00");
  await expect(total).toContainText("CHF 99.00");
  await expectNoAxeViolations(page);

  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  const summary = shop.shop.getByRole("complementary", { name: shop.t("payment.summary") });
  await expect(summary.getByRole("row", { name: /^Discount WINTER10/ })).toBeVisible();
  await expect(shop.payButton()).toHaveText(shop.t("payment.pay", { amount: "CHF\u00a099.00" }));
  await shop.payByCard("4242 4242 4242 4242");
  await shop.expectConfirmation(2);

  // The browser's purchase (the page's data layer).
  const browser = (await page.evaluate(() =>
    (window as unknown as { dataLayer: Array<{ event?: string; ecommerce?: unknown }> }).dataLayer
      .filter((entry) => entry.event === "purchase")
      .map((entry) => entry.ecommerce),
  )) as Ga4Params[];
  expect(browser).toHaveLength(1);
  const [purchase] = browser as [Ga4Params];
  expect(purchase).toMatchObject({ coupon: "WINTER10", value: 99, currency: "CHF" });

  // The purchase webhook, as delivered and verified: cart.completed carries the discount and the charged total.
  // This order's delivery: spec files running beside this one complete carts of their own on the same mock.
  await expect
    .poll(() => receiver.received.some((r) => r.body.includes(purchase.transaction_id)), { timeout: 15_000 })
    .toBe(true);
  await receiver.close();
  const delivery = receiver.received.find((r) => r.body.includes(purchase.transaction_id));
  if (!delivery) throw new Error("no cart.completed delivery for the order");
  const completed = (await verifyWebhook(
    delivery.body,
    delivery.headers as Record<string, string>,
    subscription.secret,
  )) as unknown as {
    type: string;
    data: { order: { total: unknown; discounts: Array<{ code: string; name: string; amount: unknown }> } };
  };
  expect(completed.type).toBe("cart.completed");
  expect(completed.data.order.total).toEqual({ amount: 9900, currency: "CHF" });
  expect(completed.data.order.discounts).toEqual([
    { code: "WINTER10", kind: "percentage", name: "10 % off", amount: { amount: 1100, currency: "CHF" } },
  ]);
  // Charged: the payment's amount.
  const payments = (await (await page.request.get(`${api}/__mock/events?type=payment.succeeded`)).json()) as {
    items: Array<{ data: { payment: { orderId: string; amount: unknown } } }>;
  };
  const paid = payments.items.find((e) => e.data.payment.orderId === purchase.transaction_id);
  expect(paid?.data.payment.amount).toEqual({ amount: 9900, currency: "CHF" });

  // The server's purchase, built from that webhook by the SDK: the same coupon, value and items as the browser's.
  const server = await ga4FromWebhook(completed, { clientId: "1234567890.1764583452" });
  if (!server.ok) throw new Error(server.reason);
  expect(server.payload.events[0]?.params).toEqual(purchase);
  expect(shop.cspViolations).toEqual([]);
});
