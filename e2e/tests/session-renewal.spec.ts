import { expect, test } from "@playwright/test";
import { ShopPage } from "../pages/shop-page";

test("an expired session token mid-purchase is renewed by the dev page's backend and the cart stays", async ({
  page,
}) => {
  const shop = new ShopPage(page);
  const exchanges: Array<{ sent: Record<string, string>; got: { sessionToken: string; sessionId: string } }> =
    [];
  page.on("requestfinished", async (request) => {
    if (!request.url().endsWith("/backend/shop-session")) return;
    const response = await request.response();
    exchanges.push({ sent: request.postDataJSON(), got: await response?.json() });
  });
  await shop.open();
  await shop.chooseEvent("Family Theatre");
  await shop.addTickets("Category 1", "Adult", 1);
  await shop.addToCart();
  await expect.poll(() => exchanges.length).toBe(1);
  expect(exchanges[0]?.sent).toEqual({});
  const first = exchanges[0]?.got;
  expect(first?.sessionId).toMatch(/^ses_/);

  // This visitor's token is revoked, as when it runs out (only this one: other spec files share the mock).
  const api = await page.locator('meta[name="entrada-api"]').getAttribute("content");
  const revoked = await page.request.post(`${api}/__mock/tokens/revoke`, {
    data: { token: first?.sessionToken },
  });
  expect(await revoked.json()).toEqual({ revoked: 1 });

  // The next request gets a 401; the widget asks the backend once, naming the session; the purchase goes on.
  await shop.toDetails();
  await shop.fillBuyer("Anna", "Muster", "anna@example.ch");
  await expect.poll(() => exchanges.length).toBe(2);
  expect(exchanges[1]?.sent).toEqual({ rejectedToken: first?.sessionToken, sessionId: first?.sessionId });
  expect(exchanges[1]?.got.sessionId).toBe(first?.sessionId);
  expect(exchanges[1]?.got.sessionToken).not.toBe(first?.sessionToken);
  await expect(shop.shop.getByRole("alert")).toHaveCount(0);
  await shop.payByCard("4242 4242 4242 4242");
  await shop.expectConfirmation(1);
  expect(shop.cspViolations).toEqual([]);
});
