import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Order, ShopHandle, Step } from "../src/index";
import { mount } from "../src/index";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
let handle: ShopHandle | undefined;
afterEach(() => {
  handle?.unmount();
  handle = undefined;
  document.body.innerHTML = "";
});

/** Text as read, with Intl's no-break spaces as plain spaces. */
const text = (element: Element) => (element.textContent ?? "").replace(/\u00a0/g, " ");

function container(id = "tickets"): HTMLElement {
  const element = document.createElement("div");
  element.id = id;
  document.body.append(element);
  return element;
}

async function openEvent(user: ReturnType<typeof userEvent.setup>, name: string) {
  const buttons = await screen.findAllByRole(
    "button",
    { name: tx("events.chooseFor", { name }) },
    { timeout: 5000 },
  );
  await user.click(buttons[0] as HTMLElement);
  return screen.findByRole("heading", { level: 2, name });
}

async function choose(
  user: ReturnType<typeof userEvent.setup>,
  group: string,
  article: string,
  times: number,
) {
  const fieldset = await screen.findByRole("group", { name: group });
  for (let i = 0; i < times; i += 1) {
    await user.click(within(fieldset).getByRole("button", { name: tx("event.more", { name: article }) }));
  }
}

describe("the whole journey", () => {
  it("browses, fills the cart, pays by card and shows tickets with QR codes, PDFs and a receipt", async () => {
    const user = userEvent.setup();
    const steps: Step[] = [];
    const completed: Order[] = [];
    const carts: Array<number | null> = [];
    const ready = vi.fn();
    handle = mount(container(), {
      baseUrl: API,
      fetchSessionToken: api.fetchSessionToken,
      locale: "en-GB",
      onReady: ready,
      onStepChange: (step) => steps.push(step),
      onCartChange: (cart) => carts.push(cart === null ? null : cart.items.length),
      onCheckoutComplete: (order) => completed.push(order),
    });

    // Catalogue: localized names, venues, prices; filters by venue.
    await screen.findAllByRole("heading", { level: 3, name: "Family Theatre" }, { timeout: 5000 });
    expect(ready).toHaveBeenCalledTimes(1);
    await user.selectOptions(screen.getByLabelText(tx("events.venue")), "Bierhübeli, Bern");
    await waitFor(() => expect(screen.getAllByRole("heading", { level: 3 })).toHaveLength(6));
    for (const title of screen.getAllByRole("heading", { level: 3 })) {
      expect(title.closest("li")?.textContent).toContain("Bierhübeli");
    }

    // Event: the only slot is preselected; quantities from two pricing assortments.
    const heading = await openEvent(user, "Family Theatre");
    await waitFor(() => expect(document.activeElement).toBe(heading));
    await choose(user, "Category 1", "Adult", 2);
    await choose(user, "Category 2", "Adult", 1);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));

    // Cart: two lines, hold countdown, quantity change and removal announced.
    const cartHeading = await screen.findByRole("heading", { level: 2, name: tx("cart.heading") });
    await waitFor(() => expect(document.activeElement).toBe(cartHeading));
    expect(screen.getByText(/Tickets held for \d+:\d\d/)).toBeTruthy();
    const rows = screen.getAllByRole("row").map((r) => text(r));
    expect(rows).toHaveLength(3);
    // Each line says when and where: day, time and venue of its slot, then its unit price and line total.
    expect(rows[0]).toMatch(
      /^Family Theatre – Adult \w{3}, \d{1,2} \w{3} \d{4} · \d{2}:\d{2} · Bierhübeli, Bern CHF 55\.00.*CHF 110\.00/,
    );
    expect(rows[1]).toMatch(/^Family Theatre – Adult .+ · Bierhübeli, Bern CHF 25\.00.*CHF 25\.00/);
    expect(rows[2]).toMatch(/^Total\s*CHF 135\.00$/);
    const firstLine = screen.getAllByRole("combobox")[0] as HTMLSelectElement;
    await user.selectOptions(firstLine, "3");
    await waitFor(() => expect(text(screen.getByRole("status"))).toMatch(/quantity 3\. Total CHF 190\.00/));
    await user.click(
      screen.getByRole("button", {
        name: tx("cart.remove", { name: "Family Theatre – Adult (CHF\u00a025.00)" }),
      }),
    );
    await waitFor(() => expect(text(screen.getByRole("status"))).toMatch(/removed\. Total CHF 165\.00/));
    expect(screen.getAllByRole("button", { name: /^Remove / })).toHaveLength(1);

    // Details: client-side validation first, then the buyer.
    await user.click(screen.getByRole("button", { name: tx("cart.next") }));
    await screen.findByRole("heading", { level: 2, name: tx("details.heading") });
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    expect(await screen.findByText(tx("validation.summary_other", { count: 3 }))).toBeTruthy();
    const first = screen.getByLabelText(tx("details.firstName"));
    await waitFor(() => expect(document.activeElement).toBe(first));
    await user.type(first, "Anna");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Muster");
    await user.type(screen.getByLabelText(tx("details.email")), "anna@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));

    // Payment by card.
    await screen.findByRole("heading", { level: 2, name: tx("payment.heading") });
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242 4242 4242 4242");
    await user.click(screen.getByRole("button", { name: tx("payment.pay", { amount: "CHF\u00a0165.00" }) }));

    // Confirmation: one QR code per ticket (3 tickets), PDF links and the receipt.
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });
    const qr = screen.getAllByRole("img", { name: /QR code of ticket \d/ });
    expect(qr).toHaveLength(3);
    for (const svg of qr) {
      expect(svg.getAttribute("style")).toBeNull();
      expect(svg.querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(100);
    }
    // The API signs ticketUrl / receiptUrl: plain links that open in a new tab, said so to screen readers.
    const newTab = tx("confirmation.newTab");
    const pdfs = screen.getAllByRole("link", { name: /^Ticket \d as PDF/ });
    expect(pdfs).toHaveLength(3);
    for (const [i, link] of pdfs.entries()) {
      expect(link.getAttribute("href")).toMatch(
        /^https?:\/\/.+tickets\/tkt_.+\?expires=\d+&signature=[\w-]{43}$/,
      );
      expect(text(link)).toBe(`${tx("confirmation.pdf", { n: i + 1 })} ${newTab}`);
      expect(link.getAttribute("target")).toBe("_blank");
      expect(link.getAttribute("rel")).toBe("noopener");
    }
    const receipt = screen.getByRole("link", { name: `${tx("confirmation.receipt")} ${newTab}` });
    expect(receipt.getAttribute("href")).toMatch(/receipt.*\?expires=\d+&signature=/);
    // A click is the browser's: nothing prevents it, no download through the API.
    let prevented: boolean | undefined;
    const observe = (event: Event) => {
      prevented = event.defaultPrevented;
      event.preventDefault(); // jsdom cannot open tabs
    };
    document.addEventListener("click", observe);
    receipt.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    document.removeEventListener("click", observe);
    expect(prevented).toBe(false);
    expect(screen.getAllByText(/^Q1\.tkt_/)).toHaveLength(3);

    expect(completed).toHaveLength(1);
    expect(completed[0]?.tickets).toHaveLength(3);
    expect(steps).toEqual(["event", "cart", "details", "payment", "confirmation"]);
    expect(carts.at(-1)).toBeNull();
    expect(carts).toContain(2);
  });

  it("keeps everything entered when a card is declined, then pays with another card", async () => {
    const user = userEvent.setup();
    const errors: string[] = [];
    handle = mount(container(), {
      baseUrl: API,
      fetchSessionToken: api.fetchSessionToken,
      locale: "en-GB",
      onError: (error) => errors.push(failure(error)),
    });
    await openEvent(user, "Jazz Night");
    const plus = screen.getAllByRole("button", { name: /^One more: / });
    await user.click(plus[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await user.click(await screen.findByRole("button", { name: tx("cart.next") }));
    await user.type(await screen.findByLabelText(tx("details.firstName")), "Luca");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Rossi");
    await user.type(screen.getByLabelText(tx("details.email")), "luca@example.ch");
    // Jazz Night asks the festival survey: answer the required questions.
    await user.click(await screen.findByRole("radio", { name: "Friends and family" }));
    const newsletter = screen.getByRole("group", { name: "Would you like to receive our newsletter?" });
    await user.click(within(newsletter).getByRole("radio", { name: tx("survey.no") }));
    await user.click(screen.getByRole("button", { name: tx("details.next") }));

    await screen.findByRole("heading", { level: 2, name: tx("payment.heading") });
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    const card = screen.getByLabelText(tx("payment.card"));
    await user.type(card, "4000000000000002");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(tx("errors.payment-declined"));
    expect(errors).toEqual(["payment-declined"]);
    // Typed as one run of digits, shown in groups of four (and still exactly what was typed).
    expect((screen.getByLabelText(tx("payment.card")) as HTMLInputElement).value).toBe("4000 0000 0000 0002");

    // The details are still there when going back.
    await user.click(screen.getByRole("button", { name: tx("payment.back") }));
    expect(((await screen.findByLabelText(tx("details.firstName"))) as HTMLInputElement).value).toBe("Luca");
    expect((screen.getByRole("radio", { name: "Friends and family" }) as HTMLInputElement).checked).toBe(
      true,
    );
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    const again = screen.getByLabelText(tx("payment.card"));
    await user.clear(again);
    await user.type(again, "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });
    expect(screen.getAllByRole("img", { name: /QR code/ })).toHaveLength(1);
  });
});
