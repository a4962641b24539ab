import { waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { container, openEvent, screen, text, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

// Two seats per slot, so capacity errors are easy to reach.
const api = setupMockApi({ baseUrl: API, seed: { shop: { slotCapacity: 2 } } });
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

const control = (path: string, body: unknown) =>
  api.mock.core.handle({
    method: "POST",
    url: `${API}/__mock/${path}`,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify(body)),
  });

describe("errors in place, with a way forward and nothing lost", () => {
  it("too few seats: explains, keeps the selection, offers the catalogue", async () => {
    const user = userEvent.setup();
    const errors: string[] = [];
    handles.push(
      mount(container(), {
        baseUrl: API,
        fetchSessionToken: api.fetchSessionToken,
        locale: "en-GB",
        onError: (e) => errors.push(failure(e)),
      }),
    );
    await openEvent(user, "Family Theatre");
    const group = screen.getByRole("group", { name: "Category 1" });
    for (let i = 0; i < 3; i += 1)
      await user.click(within(group).getByRole("button", { name: tx("event.more", { name: "Adult" }) }));
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toMatch(
      new RegExp(`${tx("errors.insufficient-capacity").slice(0, 30)}|${tx("errors.sold-out").slice(0, 30)}`),
    );
    expect(errors[0]).toMatch(/insufficient-capacity|sold-out/);
    // The focus moved to the message (the buyer pressed "Add to cart": it was in the widget).
    await waitFor(() => expect(document.activeElement).toBe(alert));
    expect((within(group).getByLabelText("Adult") as HTMLInputElement).value).toBe("3");
    // Fewer tickets then work.
    await user.click(within(group).getByRole("button", { name: tx("event.less", { name: "Adult" }) }));
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") });
  });

  it("seats lost after the hold lapsed: says the hold ran out, rebooks, says they are gone, offers the catalogue", async () => {
    const user = userEvent.setup();
    handles.push(
      mount(container(), { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" }),
    );
    await openEvent(user, "Jazz Night");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") });
    const before = text(screen.getAllByRole("rowheader")[0] as HTMLElement);
    // Eleven minutes pass on the server: the hold (10 minutes) lapses, and another buyer takes the seats.
    expect((await control("clock", { advanceSeconds: 660 })).status).toBeLessThan(300);
    const cart = (await api.backend.shop.createCart.orThrow({ body: {} })).data;
    const event = (
      await api.backend.shop.listEvents.orThrow({ params: { query: { slug: "jazz-night-kaufleuten" } } })
    ).data.items[0];
    const detail = (
      await api.backend.shop.getEvent.orThrow({ params: { path: { eventId: event?.id ?? "" } } })
    ).data;
    await api.backend.shop.addCartItem.orThrow({
      params: { path: { id: cart.id } },
      body: {
        articleId: detail.pricingAssortments[0]?.articles[0]?.id ?? "",
        slotId: detail.slots[0]?.id ?? "",
        quantity: 2,
      },
    });
    // The lapsed cart takes no change (409 hold-expired): the buyer is offered the same tickets again.
    await user.selectOptions(screen.getAllByRole("combobox")[0] as HTMLElement, "2");
    const expired = await screen.findByRole("alert");
    expect(expired.textContent).toContain(tx("errors.hold-expired"));
    await waitFor(() => expect(document.activeElement).toBe(expired));
    expect(text(screen.getAllByRole("rowheader")[0] as HTMLElement)).toBe(before);
    await user.click(within(expired).getByRole("button", { name: tx("errors.rebook") }));
    // The seats went to the other buyer meanwhile.
    const alert = await screen.findByText(tx("errors.sold-out"), { exact: false });
    const region = alert.closest('[role="alert"]') as HTMLElement;
    await waitFor(() => expect(document.activeElement).toBe(region));
    await user.click(within(region).getByRole("button", { name: tx("errors.events") }));
    await screen.findByRole("heading", { level: 2, name: tx("events.heading") });
  });

  it("the hold countdown runs out: offers to reserve the same tickets again", async () => {
    const user = userEvent.setup();
    handles.push(
      mount(container(), { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" }),
    );
    await openEvent(user, "Electronic Night");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByText(/Tickets held for \d+:\d\d/);
    const before = text(screen.getAllByRole("rowheader")[0] as HTMLElement);
    // An hour passes, for the browser and for the server (whose clock may already be ahead).
    await control("clock", { advanceSeconds: 3600 });
    // The browser's clock and the countdown's one-second tick are faked (the rest of the page runs as usual).
    vi.useFakeTimers({ toFake: ["Date", "setInterval", "clearInterval"], now: Date.now() + 3_600_000 });
    try {
      await vi.advanceTimersByTimeAsync(1000);
      const alert = await screen.findByRole("alert");
      expect(alert.textContent).toContain(tx("errors.hold-expired"));
      await expect.poll(() => document.activeElement).toBe(alert);
      await user.click(within(alert).getByRole("button", { name: tx("errors.rebook") }));
      // A new hold on the same tickets.
      await screen.findByText(/Tickets held for \d+:\d\d/);
      expect(screen.queryByRole("alert")).toBeNull();
      expect(text(screen.getAllByRole("rowheader")[0] as HTMLElement)).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });
});
