import { render, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createElement } from "react";
import { afterEach, describe, expect, it } from "vitest";
import type { EntradaError, Order, ShopHandle } from "../src/index";
import { isErrorKind, isProblem, mount } from "../src/index";
import { EntradaShop } from "../src/react/index";
import { container, openEvent, screen, type User, within } from "./support/dom";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

const field = (name: string) =>
  screen.getByLabelText(tx(`details.${name}`), { exact: false }) as HTMLInputElement;

/** One ticket of Family Theatre (no survey), then the details step. */
async function toDetails(user: User) {
  await openEvent(user, "Family Theatre");
  await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
  await user.click(screen.getByRole("button", { name: tx("event.add") }));
  await user.click(await screen.findByRole("button", { name: tx("cart.next") }));
  await screen.findByRole("heading", { level: 2, name: tx("details.heading") });
}

const base = { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" as const };

describe("prefilled and locked buyer details", () => {
  it("prefills, shows locked fields read-only with a hint, and sends them as given", async () => {
    const user = userEvent.setup();
    const completed: Order[] = [];
    const errors: EntradaError[] = [];
    handles.push(
      mount(container(), {
        ...base,
        buyer: { firstName: "Anna", lastName: "Muster", email: " anna.member@example.ch " },
        lockBuyer: ["email"],
        onCheckoutComplete: (order) => completed.push(order),
        onError: (e) => errors.push(e),
      }),
    );
    await toDetails(user);
    expect(field("firstName").value).toBe("Anna");
    expect(field("lastName").value).toBe("Muster");
    const email = field("email");
    expect(email.value).toBe("anna.member@example.ch");
    // Read-only (focusable, read and sent), not disabled; the hint is its description.
    expect(email.readOnly).toBe(true);
    expect(email.disabled).toBe(false);
    expect(field("firstName").readOnly).toBe(false);
    const hint = document.getElementById(email.getAttribute("aria-describedby") ?? "");
    expect(hint?.textContent).toBe(tx("details.locked"));
    // Typing changes the editable fields, never the locked one.
    await user.clear(field("firstName"));
    await user.type(field("firstName"), "Anne");
    await user.type(email, "x");
    expect(email.value).toBe("anna.member@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    await screen.findByRole("heading", { level: 2, name: tx("payment.heading") });
    await user.type(await screen.findByLabelText(tx("payment.card")), "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") });
    expect(completed[0]?.customer).toMatchObject({ firstName: "Anne", email: "anna.member@example.ch" });
    expect(errors).toEqual([]);
    // A next purchase: the buyer is still known, the address still locked.
    await user.click(screen.getByRole("button", { name: tx("confirmation.again") }));
    await toDetails(user);
    expect(field("firstName").value).toBe("Anne");
    expect(field("email").readOnly).toBe(true);
  });

  it("reports prefill values that fail validation to the host, naming each field, and leaves them empty and editable", async () => {
    const user = userEvent.setup();
    const errors: EntradaError[] = [];
    handles.push(
      mount(container(), {
        ...base,
        // A host bug: a wrong address, a number, an over-long name, a field that does not exist.
        buyer: { email: "anna@", firstName: 42, lastName: "M".repeat(101), nickname: "A" } as never,
        lockBuyer: ["email", "lastName"],
        onError: (e) => errors.push(e),
      }),
    );
    await waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(4));
    const invalid = errors.filter((e) => isErrorKind(e, "invalid-argument"));
    expect(invalid).toHaveLength(errors.length);
    expect(invalid.map((e) => e.argument).sort()).toEqual([
      "buyer.email",
      "buyer.firstName",
      "buyer.lastName",
      "buyer.nickname",
    ]);
    expect(invalid.find((e) => e.argument === "buyer.email")?.message).toMatch(
      /buyer\.email is not an e-mail address/,
    );
    await toDetails(user);
    for (const name of ["firstName", "lastName", "email"]) {
      expect(field(name).value).toBe("");
      expect(field(name).readOnly).toBe(false);
    }
    // Nothing the buyer sees says so: the host's mistake is the host's.
    expect(screen.queryByRole("alert")).toBeNull();
    await user.type(field("email"), "anna@example.ch");
    expect(field("email").value).toBe("anna@example.ch");
  });

  it("applies a new buyer through update(): prefilled and locked in place, unlocked again", async () => {
    const user = userEvent.setup();
    const handle = mount(container(), base);
    handles.push(handle);
    await toDetails(user);
    await user.type(field("firstName"), "Anna");
    expect(field("email").readOnly).toBe(false);
    // The visitor logs in on the host page.
    handle.update({ buyer: { email: "anna.member@example.ch" }, lockBuyer: ["email"] });
    await waitFor(() => expect(field("email").readOnly).toBe(true));
    expect(field("email").value).toBe("anna.member@example.ch");
    expect(field("firstName").value).toBe("Anna");
    handle.update({ lockBuyer: [] });
    await waitFor(() => expect(field("email").readOnly).toBe(false));
    expect(field("email").value).toBe("anna.member@example.ch");
  });

  it("a locked value the server refuses: tells the buyer to contact the organiser, saves nothing", async () => {
    const user = userEvent.setup();
    const errors: EntradaError[] = [];
    handles.push(
      mount(container(), {
        ...base,
        // Passes the widget's check, but the API takes E.164 only.
        buyer: { firstName: "Anna", lastName: "Muster", email: "anna@example.ch", phone: "079 123 45 67" },
        lockBuyer: ["email", "phone"],
        onError: (e) => errors.push(e),
      }),
    );
    await toDetails(user);
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(tx("errors.buyer-refused"));
    // The host hears the API's refusal as the SDK reported it, naming the refused field.
    expect(errors).toHaveLength(1);
    const [refusal] = errors;
    expect(isProblem(refusal, "validation-error") && refusal.errors.map((e) => e.pointer)).toEqual([
      "/body/phone",
    ]);
    // No way to retry the same refused values; the buyer stays on the details step with everything kept.
    expect(within(alert).queryByRole("button")).toBeNull();
    expect(screen.getByRole("heading", { level: 2, name: tx("details.heading") })).toBeTruthy();
    expect(field("phone").value).toBe("079 123 45 67");
    // Nothing half-done: the cart has no buyer.
    const cartId = sessionStorage.getItem("entrada-shop:tickets:cart") ?? "";
    const cart = (await api.backend.shop.getCart.orThrow({ params: { path: { id: cartId } } })).data;
    expect(cart.customer ?? null).toBeNull();
  });

  it("takes buyer and lockBuyer as props of the React component", async () => {
    const user = userEvent.setup();
    render(
      createElement(EntradaShop, {
        ...base,
        buyer: { firstName: "Anna", email: "anna@example.ch" },
        lockBuyer: ["firstName"],
      }),
    );
    await toDetails(user);
    expect(field("firstName").readOnly).toBe(true);
    expect(field("email").value).toBe("anna@example.ch");
    expect(field("email").readOnly).toBe(false);
  });
});
