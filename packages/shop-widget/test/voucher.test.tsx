/**
 * The voucher code in the cart, against the mock (msw): refusals and malformed codes say why, translated, and leave
 * the cart as it was; an applied code shows as a discount line in the cart and the order summary, can be removed,
 * is applied once however often it is sent, is charged, and the browser's `purchase` carries its `coupon`.
 */
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import seededCodes from "../../mock-server/src/sections/shop/vouchers.seed.json" with { type: "json" };
import type { AnalyticsEvent } from "../src/core/analytics";
import de from "../src/i18n/locales/checkout/de-CH";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

// The mock's seeded codes plus ONCE, a code with a single use.
const ONCE = {
  code: "ONCE",
  kind: "fixed-amount",
  amount: { CHF: 1000 },
  maxUses: 1,
  name: { "de-CH": "Einmal", "fr-CH": "Une fois", "it-CH": "Una volta", "en-GB": "Once" },
};
const api = setupMockApi({ baseUrl: API, seed: { shop: { vouchers: [...seededCodes, ONCE] } } });
let handle: ShopHandle | undefined;
afterEach(() => {
  handle?.unmount();
  handle = undefined;
  document.body.innerHTML = "";
});

const text = (element: Element) => (element.textContent ?? "").replace(/\u00a0/g, " ");
const rows = () => screen.getAllByRole("row").map(text);

/** The widget with two adult tickets of "Family Theatre" (CHF 55.00 each) in the cart, on the cart step. */
async function cartOfTwo(locale: "en-GB" | "de-CH" = "en-GB", events: AnalyticsEvent[] = []) {
  const user = userEvent.setup();
  const element = document.createElement("div");
  document.body.append(element);
  handle = mount(element, {
    baseUrl: API,
    fetchSessionToken: api.fetchSessionToken,
    locale,
    analytics: { onEvent: (event) => events.push(event) },
  });
  const name = locale === "en-GB" ? /Family Theatre/ : /Familientheater/;
  const choose = await screen.findAllByRole("button", { name }, { timeout: 5000 });
  await user.click(choose[0] as HTMLElement);
  const group = await screen.findByRole("group", { name: locale === "en-GB" ? "Category 1" : "Kategorie 1" });
  const more = within(group).getAllByRole("button")[1] as HTMLElement;
  await user.click(more);
  await user.click(more);
  await user.click(screen.getByRole("button", { name: locale === "en-GB" ? tx("event.add") : de.event.add }));
  await screen.findByRole("heading", {
    level: 2,
    name: locale === "en-GB" ? tx("cart.heading") : de.cart.heading,
  });
  return user;
}

/** The voucher's state in the mock (uses held by carts). */
async function held(code: string): Promise<number> {
  const snapshot = (await (await fetch(`${API}/__mock/snapshot`)).json()) as {
    world: { shop: { vouchers: Record<string, { held: number }> } };
  };
  return snapshot.world.shop.vouchers[code]?.held ?? -1;
}

describe("the voucher code field", () => {
  it("says why a code is refused or malformed, translated, and leaves the cart unchanged", async () => {
    const user = await cartOfTwo();
    const before = rows();
    expect(before.at(-1)).toMatch(/^Total\s*CHF 110\.00$/);
    const field = screen.getByLabelText(tx("voucher.label"));
    const apply = screen.getByRole("button", { name: tx("voucher.apply") });

    for (const [code, key] of [
      ["NOPE", "errors.voucher-unknown"],
      ["summer25", "errors.voucher-expired"],
      ["STUDENT50", "errors.voucher-not-applicable"],
      ["WIN\u0007TER10", "voucher.malformed"],
      ["A".repeat(10 * 1024), "voucher.malformed"],
    ] as const) {
      fireEvent.change(field, { target: { value: code } });
      await user.click(apply);
      const alert = await screen.findByText(tx(key));
      expect(alert.getAttribute("role")).toBe("alert");
      expect(field.getAttribute("aria-invalid")).toBe("true");
      expect(field.getAttribute("aria-describedby")).toBe(alert.id);
      expect(rows()).toEqual(before);
    }
    fireEvent.change(field, { target: { value: "  " } });
    await user.click(apply);
    expect(await screen.findByText(tx("voucher.empty"))).toBeTruthy();
    expect(await held("TEN-ONLY")).toBe(0);
  });

  it("applies a code once however often it is sent, shows the discount, removes it", async () => {
    const user = await cartOfTwo();
    const field = screen.getByLabelText(tx("voucher.label"));
    await user.type(field, "ten-only");
    // A double submit: the second is not sent while the first runs, and the API would answer it once anyway.
    const apply = screen.getByRole("button", { name: tx("voucher.apply") });
    fireEvent.submit(apply.closest("form") as HTMLFormElement);
    fireEvent.submit(apply.closest("form") as HTMLFormElement);
    await waitFor(() => expect(rows().at(-1)).toMatch(/^Total\s*CHF 88\.00$/));
    expect(await held("TEN-ONLY")).toBe(1);
    expect(rows().slice(-3)).toEqual([
      expect.stringMatching(/^Subtotal\s*CHF 110\.00$/),
      expect.stringMatching(/^Discount TEN-ONLY 20 % off \(10 uses\)\s*−CHF 22\.00$/),
      expect.stringMatching(/^Total\s*CHF 88\.00$/),
    ]);
    await waitFor(() =>
      expect(text(screen.getByRole("status"))).toContain(
        tx("voucher.applied", { code: "TEN-ONLY", amount: "CHF 22.00", total: "CHF 88.00" }),
      ),
    );

    await user.click(screen.getByRole("button", { name: tx("voucher.remove", { code: "TEN-ONLY" }) }));
    await waitFor(() => expect(rows().at(-1)).toMatch(/^Total\s*CHF 110\.00$/));
    expect(rows().some((r) => r.startsWith("Discount"))).toBe(false);
    expect(await held("TEN-ONLY")).toBe(0);
    expect(screen.getByLabelText(tx("voucher.label"))).toBeTruthy();
  });

  it("translates the reasons (German)", async () => {
    const user = await cartOfTwo("de-CH");
    fireEvent.change(screen.getByLabelText(de.voucher.label), { target: { value: "SUMMER25" } });
    await user.click(screen.getByRole("button", { name: de.voucher.apply }));
    expect(await screen.findByText(de.errors["voucher-expired"])).toBeTruthy();
  });

  it("charges the discount and sends the coupon and the charged value with the purchase", async () => {
    const events: AnalyticsEvent[] = [];
    const user = await cartOfTwo("en-GB", events);
    await user.type(screen.getByLabelText(tx("voucher.label")), "WINTER10");
    await user.click(screen.getByRole("button", { name: tx("voucher.apply") }));
    await waitFor(() => expect(rows().at(-1)).toMatch(/^Total\s*CHF 99\.00$/));

    await user.click(screen.getByRole("button", { name: tx("cart.next") }));
    await user.type(await screen.findByLabelText(tx("details.firstName")), "Anna");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Muster");
    await user.type(screen.getByLabelText(tx("details.email")), "anna@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    // The order summary beside the payment shows the discount too.
    const summary = await screen.findByRole("complementary", { name: tx("payment.summary") });
    expect(text(summary)).toMatch(/Discount WINTER10 10 % off\s*−CHF 11\.00/);
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242 4242 4242 4242");
    await user.click(screen.getByRole("button", { name: tx("payment.pay", { amount: "CHF\u00a099.00" }) }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });

    const purchase = events.find((e) => e.name === "purchase");
    expect(purchase?.params).toMatchObject({ coupon: "WINTER10", value: 99, currency: "CHF" });
    expect(purchase?.params.items).toEqual([
      expect.objectContaining({ price: 49.5, discount: 5.5, quantity: 2 }),
    ]);
    expect(events.find((e) => e.name === "begin_checkout")?.params).toMatchObject({
      coupon: "WINTER10",
      value: 99,
    });
  });

  it("a code whose last use went to another cart while the cart held none: the payment says so, nothing is charged", async () => {
    const user = await cartOfTwo();
    await user.type(screen.getByLabelText(tx("voucher.label")), "ONCE");
    await user.click(screen.getByRole("button", { name: tx("voucher.apply") }));
    await waitFor(() => expect(rows().at(-1)).toMatch(/^Total\s*CHF 100\.00$/));
    // The cart is emptied (by the host's backend here, as another tab of the visitor would), which gives the code's
    // use back; another buyer takes the only use; the tickets come back into the cart, the code without a use.
    const snapshot = (await (await fetch(`${API}/__mock/snapshot`)).json()) as {
      world: {
        shop: { carts: Record<string, { items: Array<{ id: string; articleId: string; slotId: string }> }> };
      };
    };
    const [cartId, mine] = Object.entries(snapshot.world.shop.carts)[0] ?? ["", { items: [] }];
    const line = { articleId: mine.items[0]?.articleId ?? "", slotId: mine.items[0]?.slotId ?? "" };
    const shop = api.backend.shop;
    await shop.removeCartItem.orThrow({ params: { path: { id: cartId, itemId: mine.items[0]?.id ?? "" } } });
    const { data: other } = await shop.createCart.orThrow({ body: {} });
    const path = { path: { id: other.id } };
    await shop.addCartItem.orThrow({ params: path, body: { ...line, quantity: 1 } });
    await shop.applyCartVoucher.orThrow({ params: path, body: { code: "ONCE" } });
    await shop.addCartItem.orThrow({ params: { path: { id: cartId } }, body: { ...line, quantity: 2 } });

    await user.click(screen.getByRole("button", { name: tx("cart.next") }));
    await user.type(await screen.findByLabelText(tx("details.firstName")), "Anna");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Muster");
    await user.type(screen.getByLabelText(tx("details.email")), "anna@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242 4242 4242 4242");
    await user.click(screen.getByRole("button", { name: tx("payment.pay", { amount: "CHF\u00a0100.00" }) }));
    expect(await screen.findByText(tx("errors.voucher-used-up"))).toBeTruthy();
    const payments = (await (await fetch(`${API}/__mock/events?type=payment.succeeded`)).json()) as {
      items: unknown[];
    };
    expect(payments.items).toEqual([]);
  });
});
