import { fireEvent, render, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createElement, StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { EntradaShop } from "../src/react/index";
import { container, openEvent, screen, text, toPayment, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

const base = () => ({ baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" as const });

describe("mount()", () => {
  it("fails loudly on a missing container", () => {
    expect(() => mount("#nowhere", base())).toThrow(/container "#nowhere" not found/);
    expect(() => mount(null as unknown as Element, base())).toThrow(/not found/);
  });

  it("returns the same handle when called twice on one container, with the new config applied", async () => {
    const element = container();
    const first = mount(element, base());
    handles.push(first);
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const second = mount(element, { ...base(), locale: "de-CH" });
    expect(second).toBe(first);
    expect(element.querySelectorAll(".entrada-shop")).toHaveLength(1);
    // A misuse the console names: a second shop was asked for and none is made.
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/already has a shop.*unmount\(\)/), element);
    warn.mockRestore();
    await screen.findByRole("heading", { level: 2, name: "Veranstaltungen" });
  });

  it("says so once in the console when a handle is used after unmount, and throws nothing", async () => {
    const element = container();
    const handle = mount(element, base());
    handle.unmount();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(() => handle.update({ locale: "de-CH" })).not.toThrow();
    handle.update({ locale: "fr-CH" });
    handle.unmount();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/update\(\) on a shop that was unmounted/));
    warn.mockRestore();
    expect(element.children).toHaveLength(0);
  });

  it("applies design tokens, theme and nonce, and changes them live", async () => {
    const element = container();
    const handle = mount(element, {
      ...base(),
      nonce: "r4nd0m",
      theme: "dark",
      appearance: { colorPrimary: "#663399" },
    });
    handles.push(handle);
    await screen.findAllByRole("heading", { level: 3 }, { timeout: 5000 });
    const root = element.querySelector<HTMLElement>(".entrada-shop");
    expect(root?.dataset.theme).toBe("dark");
    expect(root?.style.getPropertyValue("--entrada-color-primary")).toBe("#663399");
    // Set through the CSSOM, never as a parsed style attribute string from our side.
    const style = document.head.querySelector<HTMLStyleElement>("style[data-entrada-shop-styles='base']");
    expect(style?.nonce).toBe("r4nd0m");
    const css = (style?.textContent ?? "")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/\s+/g, " ")
      .trim();
    expect(css).toMatch(/^@layer entrada \{/);
    // Every rule is scoped: nothing in the sheet selects outside `.entrada-shop`.
    const rules = css.replace(/^@layer entrada \{|\}$/g, "");
    for (const selector of rules.match(/(?<=^|\})[^{}@]+(?=\{)/g) ?? []) {
      // Top-level commas only (`:where(h2, h3)` is one selector).
      const parts = selector.split(/,(?![^(]*\))/);
      for (const part of parts) expect(part.trim()).toMatch(/^\.entrada-shop/);
    }
    handle.update({ theme: "auto", appearance: { colorPrimary: "#008000", radius: "0" } });
    await waitFor(() => expect(root?.style.getPropertyValue("--entrada-color-primary")).toBe("#008000"));
    expect(root?.style.getPropertyValue("--entrada-radius")).toBe("0");
    expect(root?.dataset.theme).toBe("auto");
  });

  it("leaves nothing behind after unmount: nodes, styles, listeners, timers (10 cycles)", async () => {
    const element = container();
    element.innerHTML = "";
    const active = { listeners: new Set<string>(), intervals: new Set<unknown>() };
    const add = EventTarget.prototype.addEventListener;
    const remove = EventTarget.prototype.removeEventListener;
    const ids = new WeakMap<object, number>();
    let next = 0;
    const key = (target: object, type: string, listener: unknown, capture: unknown) => {
      if (!ids.has(target)) ids.set(target, next++);
      if (typeof listener === "object" && listener !== null && !ids.has(listener)) ids.set(listener, next++);
      if (typeof listener === "function" && !ids.has(listener)) ids.set(listener, next++);
      return `${ids.get(target)}|${type}|${ids.get(listener as object)}|${capture === true || (capture as { capture?: boolean })?.capture === true}`;
    };
    const addSpy = vi.spyOn(EventTarget.prototype, "addEventListener").mockImplementation(function (
      this: EventTarget,
      type,
      listener,
      options,
    ) {
      if (this === window || this === document) active.listeners.add(key(this, type, listener, options));
      return add.call(this, type, listener, options);
    });
    const removeSpy = vi.spyOn(EventTarget.prototype, "removeEventListener").mockImplementation(function (
      this: EventTarget,
      type,
      listener,
      options,
    ) {
      if (this === window || this === document) active.listeners.delete(key(this, type, listener, options));
      return remove.call(this, type, listener, options);
    });
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const clearIntervalSpy = vi.spyOn(globalThis, "clearInterval");
    // Testing tools attach their own document listeners: set them up before counting.
    const user = userEvent.setup();
    try {
      const before = active.listeners.size;
      for (let cycle = 0; cycle < 10; cycle += 1) {
        const handle = mount(element, base());
        const off = handle.on("stepchange", () => {});
        await within(element).findAllByRole("heading", { level: 3 }, { timeout: 5000 });
        if (cycle === 0) {
          // Go as far as the cart so its countdown interval runs too.
          await openEvent(user, "Family Theatre", element);
          await user.click(within(element).getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
          await user.click(within(element).getByRole("button", { name: tx("event.add") }));
          await within(element).findByText(/Tickets held for/);
        }
        handle.unmount();
        off();
        expect(element.childNodes).toHaveLength(0);
        expect(document.head.querySelectorAll("style[data-entrada-shop-styles]")).toHaveLength(0);
      }
      await expect.poll(() => active.listeners.size).toBe(before);
      const created = setIntervalSpy.mock.results.map((r) => r.value);
      const cleared = new Set(clearIntervalSpy.mock.calls.map((c) => c[0]));
      expect(created.length).toBeGreaterThan(0);
      expect(created.filter((id) => !cleared.has(id))).toEqual([]);
    } finally {
      addSpy.mockRestore();
      removeSpy.mockRestore();
      setIntervalSpy.mockRestore();
      clearIntervalSpy.mockRestore();
    }
  });
});

describe("single-page app remounts", () => {
  it("find the buyer's cart again after an unmount (reference only in sessionStorage)", async () => {
    const user = userEvent.setup();
    const element = container();
    const first = mount(element, base());
    await openEvent(user, "Family Theatre", element);
    await user.click(within(element).getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(within(element).getByRole("button", { name: tx("event.add") }));
    await within(element).findByRole("heading", { level: 2, name: tx("cart.heading") });
    first.unmount();
    expect(sessionStorage.getItem("entrada-shop:tickets:cart")).toMatch(/^crt_/);

    const second = mount(element, base());
    handles.push(second);
    const link = await within(element).findByRole(
      "button",
      { name: tx("events.cart_one", { count: 1 }) },
      { timeout: 5000 },
    );
    await user.click(link);
    await within(element).findByRole("heading", { level: 2, name: tx("cart.heading") });
    expect(within(element).getAllByRole("rowheader")[0]?.textContent).toMatch(/^Family Theatre – Adult/);
  });

  it("drop a remembered cart that no longer exists", async () => {
    sessionStorage.setItem("entrada-shop:tickets:cart", "crt_unknown");
    handles.push(mount(container(), base()));
    await screen.findAllByRole("heading", { level: 3 }, { timeout: 5000 });
    await waitFor(() => expect(sessionStorage.getItem("entrada-shop:tickets:cart")).toBeNull());
    expect(screen.queryByRole("button", { name: /^Cart:/ })).toBeNull();
  });
});

describe("several widgets on one page", () => {
  it("keep separate state and languages, with no duplicate ids", async () => {
    const user = userEvent.setup();
    const a = container("shop-a");
    const b = container("shop-b");
    handles.push(mount(a, base()), mount(b, { ...base(), locale: "fr-CH" }));
    await within(a).findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    await within(b).findByRole("heading", { level: 2, name: "Événements" }, { timeout: 5000 });
    await openEvent(user, "Family Theatre", a);
    await user.click(within(a).getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(within(a).getByRole("button", { name: tx("event.add") }));
    await within(a).findByRole("heading", { level: 2, name: tx("cart.heading") });
    // Widget B is untouched: still the catalogue, in French, without a cart.
    expect(within(b).getByRole("heading", { level: 2 }).textContent).toBe("Événements");
    expect(within(b).queryByRole("button", { name: /^Panier/ })).toBeNull();
    const ids = [...document.querySelectorAll("[id]")].map((e) => e.id);
    expect(ids.length).toBeGreaterThanOrEqual(4);
    expect(new Set(ids).size).toBe(ids.length);
    // Every label points at exactly one control.
    for (const label of document.querySelectorAll("label[for]")) {
      expect(document.querySelectorAll(`[id="${label.getAttribute("for")}"]`)).toHaveLength(1);
    }
  });
});

describe("live language switch", () => {
  it("re-renders in place: texts, API content and money change; cart, form contents and focus stay", async () => {
    const user = userEvent.setup();
    const locales: string[] = [];
    const handle = mount(container(), { ...base(), onLocaleChange: (l) => locales.push(l) });
    handles.push(handle);
    await openEvent(user, "Family Theatre");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await user.click(await screen.findByRole("button", { name: tx("cart.next") }));
    const firstName = await screen.findByLabelText(tx("details.firstName"));
    await user.type(firstName, "Anna");
    const email = screen.getByLabelText(tx("details.email"));
    await user.type(email, "anna@exa");
    expect(document.activeElement).toBe(email);

    handle.update({ locale: "fr-CH" });
    await screen.findByRole("heading", { level: 2, name: "Vos coordonnées" });
    // Same elements (not remounted), same values, focus where it was.
    expect(screen.getByLabelText("Prénom")).toBe(firstName);
    expect((firstName as HTMLInputElement).value).toBe("Anna");
    expect((email as HTMLInputElement).value).toBe("anna@exa");
    expect(document.activeElement).toBe(email);
    expect(locales).toEqual(["fr-CH"]);
    await user.type(email, "mple.ch");
    expect((email as HTMLInputElement).value).toBe("anna@example.ch");

    // Back to the cart: the API's texts follow (Accept-Language) and amounts use the culture.
    await user.click(screen.getByRole("button", { name: "Retour au panier" }));
    const line = (await screen.findAllByRole("rowheader"))[0] as HTMLElement;
    // The seeded slot's weekday follows the mock's clock (today): any French abbreviation, never German/English.
    await waitFor(() =>
      expect(text(line)).toMatch(
        /^Théâtre en famille – Adulte (lun|mar|mer|jeu|ven|sam|dim)\. .+ 55\.00 CHF/,
      ),
    );
    expect(document.querySelector(".entrada-shop")?.getAttribute("lang")).toBe("fr-CH");

    handle.update({ locale: "it-CH" });
    await screen.findByRole("heading", { level: 2, name: "Il suo carrello" });
    expect(screen.getAllByRole("row")).toHaveLength(2);
  });
});

describe("session tokens", () => {
  it("asks the backend again once when the token is rejected, and keeps going", async () => {
    const user = userEvent.setup();
    handles.push(mount(container(), base()));
    await openEvent(user, "Family Theatre");
    expect(api.sessionsCreated()).toBe(1);
    // Every token of the session is revoked (expiry, key rotation on the host's side...).
    await api.mock.core.handle({
      method: "POST",
      url: `${API}/__mock/tokens/revoke`,
      headers: {},
      body: null,
    });
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") }, { timeout: 5000 });
    expect(api.sessionsCreated()).toBe(2);
  });

  it("says the session expired when the renewed token is rejected too, and tells the host the 401", async () => {
    const errors: string[] = [];
    const fetchSessionToken = vi.fn(async () => "ses_bogus.token-that-the-api-rejects");
    handles.push(
      mount(container(), { ...base(), fetchSessionToken, onError: (e) => errors.push(failure(e)) }),
    );
    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert.textContent).toContain(tx("errors.session-expired"));
    // Once at start, once after the 401: never a loop.
    expect(fetchSessionToken).toHaveBeenCalledTimes(2);
    expect(fetchSessionToken).toHaveBeenLastCalledWith({
      rejectedToken: "ses_bogus.token-that-the-api-rejects",
    });
    expect(errors).toContain("unauthorized");
  });
});

describe("errors in place", () => {
  it("shows a lost connection with a way to retry, and recovers", async () => {
    const { http, HttpResponse } = await import("msw");
    api.server.use(http.get(`${API}/shop/v1/discovery/events`, () => HttpResponse.error()));
    handles.push(mount(container(), base()));
    const alert = await screen.findByRole("alert", {}, { timeout: 8000 });
    expect(alert.textContent).toContain(tx("errors.network"));
    api.server.resetHandlers();
    fireEvent.click(within(alert).getByRole("button", { name: tx("errors.retry") }));
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
  });
});

describe("analytics", () => {
  it("is off by default", async () => {
    handles.push(mount(container(), base()));
    await screen.findAllByRole("heading", { level: 3 }, { timeout: 5000 });
    expect((window as { dataLayer?: unknown }).dataLayer).toBeUndefined();
  });

  it("pushes GA4 e-commerce events, clear-then-push, currency with every value, one purchase", async () => {
    const user = userEvent.setup();
    const dataLayer: Array<Record<string, unknown>> = [];
    const names: string[] = [];
    handles.push(
      mount(container(), { ...base(), analytics: { dataLayer, onEvent: (e) => names.push(e.name) } }),
    );
    await toPayment(user);
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });
    await waitFor(() => expect(names).toContain("purchase"));
    expect(names).toEqual([
      "view_item_list",
      "select_item",
      "view_item",
      "add_to_cart",
      "view_cart",
      "begin_checkout",
      "add_payment_info",
      "purchase",
    ]);
    for (let i = 0; i < dataLayer.length; i += 2) {
      expect(dataLayer[i]).toEqual({ ecommerce: null });
      const ecommerce = dataLayer[i + 1]?.ecommerce as Record<string, unknown>;
      if ("value" in ecommerce) expect(ecommerce.currency).toBe("CHF");
      for (const item of ecommerce.items as Array<Record<string, unknown>>) {
        expect(typeof item.item_id).toBe("string");
        expect(typeof item.item_name).toBe("string");
      }
    }
    const purchase = dataLayer.find((e) => e.event === "purchase")?.ecommerce as Record<string, unknown>;
    expect(purchase.transaction_id).toMatch(/^ord_/);
    expect(purchase.value).toBe(55);
    expect(dataLayer.filter((e) => e.event === "purchase")).toHaveLength(1);
  });

  describe("the visitor's GA4 ids with the checkout", () => {
    const cookies = ["_ga=GA1.1.1187324961.1764583200", "_ga_ABC123XYZ=GS2.1.s1764582815$o3$g1$t1764583300"];
    afterEach(() => {
      for (const c of cookies) document.cookie = `${c.split("=")[0]}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
    });

    /** Pays one ticket by card with the given analytics options; the order and its cart.completed payload. */
    async function purchase(analytics: NonNullable<Parameters<typeof mount>[1]["analytics"]>) {
      for (const c of cookies) document.cookie = c;
      const user = userEvent.setup();
      const orders: Array<{ id: string; analytics?: unknown }> = [];
      handles.push(mount(container(), { ...base(), analytics, onCheckoutComplete: (o) => orders.push(o) }));
      await toPayment(user);
      await user.click(await screen.findByRole("radio", { name: /card/i }));
      await user.type(screen.getByLabelText(tx("payment.card")), "4242424242424242");
      await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
      await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });
      const order = orders[0] as { id: string; analytics?: unknown };
      const events = (await (await fetch(`${API}/__mock/events?type=cart.completed`)).json()) as {
        items: Array<{ data: { order: { id: string; analytics?: unknown } } }>;
      };
      return { order, webhook: events.items.find((e) => e.data.order.id === order.id)?.data.order };
    }

    it("are passed when the host set measurementId: the order and cart.completed carry them", async () => {
      const dataLayer: Array<Record<string, unknown>> = [];
      const { order, webhook } = await purchase({ dataLayer, measurementId: "G-ABC123XYZ" });
      const ids = { ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" };
      expect(order.analytics).toEqual(ids);
      expect(webhook?.analytics).toEqual(ids);
      // The browser's own purchase names the same order: GA4 joins and dedupes both sides.
      const browser = dataLayer.find((e) => e.event === "purchase")?.ecommerce as Record<string, unknown>;
      expect(browser.transaction_id).toBe(order.id);
    });

    it("are never read or sent with analytics on but no measurementId (no consent given)", async () => {
      const { order, webhook } = await purchase({ dataLayer: [] });
      expect(order).not.toHaveProperty("analytics");
      expect(webhook).toBeDefined();
      expect(webhook).not.toHaveProperty("analytics");
    });
  });
});

describe("React component", () => {
  it("renders under StrictMode without duplicate requests", async () => {
    const requests: string[] = [];
    const counting: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      return fetch(request);
    };
    render(
      createElement(
        StrictMode,
        null,
        createElement(EntradaShop, { ...base(), fetch: counting, instanceId: "react" }),
      ),
    );
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    // The venues filter filled in too: both answers are rendered, so a doubled request (StrictMode's second
    // mount sends it at once) would be in the list by now.
    await expect.poll(() => screen.getAllByRole("option").length).toBeGreaterThan(1);
    expect(requests.filter((r) => r === "GET /shop/v1/discovery/events")).toHaveLength(1);
    expect(requests.filter((r) => r === "GET /shop/v1/discovery/venues")).toHaveLength(1);
    expect(api.sessionsCreated()).toBe(1);
  });

  it("takes new props live", async () => {
    const { rerender } = render(createElement(EntradaShop, base()));
    await screen.findByRole("heading", { level: 2, name: "Events" }, { timeout: 5000 });
    rerender(createElement(EntradaShop, { ...base(), locale: "it-CH" }));
    await screen.findByRole("heading", { level: 2, name: "Eventi" });
  });
});
