import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

/**
 * The event list asks the catalogue for every event's slots and assortments (`include=slots,assortments`,
 * issue 19), so opening an event needs no round trip: the step is usable while `getEvent` is still on its way,
 * and its answer (the full description) replaces the list's data when it arrives.
 */
const api = setupMockApi();
let handle: ShopHandle | undefined;
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  handle?.unmount();
  handle = undefined;
  document.body.innerHTML = "";
});

function container(): HTMLElement {
  const element = document.createElement("div");
  document.body.append(element);
  return element;
}

/** Holds every `getEvent` until `release()`; records the catalogue and cart requests. */
function holdEventDetails() {
  const seen: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const record = ({ request }: { request: Request }) => {
    const url = new URL(request.url);
    seen.push(`${request.method} ${url.pathname}${url.search}`);
  };
  api.server.events.on("request:start", record);
  stops.push(() => {
    release();
    api.server.events.removeListener("request:start", record);
  });
  api.server.use(
    http.get(`${API}/shop/v1/discovery/events/:eventId`, async () => {
      await released;
      // Nothing returned: the mock's own handler answers.
      return undefined;
    }),
  );
  return { seen, release };
}

async function openFromList(user: ReturnType<typeof userEvent.setup>, name: string) {
  const buttons = await screen.findAllByRole(
    "button",
    { name: tx("events.chooseFor", { name }) },
    { timeout: 5000 },
  );
  await user.click(buttons[0] as HTMLElement);
  await screen.findByRole("heading", { level: 2, name });
}

describe("event list → event step", () => {
  it("asks the catalogue for slots and assortments, and adds to the cart before getEvent answers", async () => {
    const user = userEvent.setup();
    const held = holdEventDetails();
    handle = mount(container(), { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" });
    await openFromList(user, "Family Theatre");
    const list = held.seen.filter((r) => r.startsWith("GET /shop/v1/discovery/events?"));
    expect(list.length).toBeGreaterThan(0);
    for (const r of list)
      expect(new URL(`${API}${r.slice(4)}`).searchParams.get("include")).toBe("slots,assortments");

    // getEvent has been asked but not answered: the slot and the articles come from the list.
    expect(held.seen.some((r) => /^GET \/shop\/v1\/discovery\/events\/evt_/.test(r))).toBe(true);
    const group = screen.getByRole("group", { name: "Category 1" });
    await user.click(within(group).getByRole("button", { name: tx("event.more", { name: "Adult" }) }));
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") });
    expect(held.seen.filter((r) => /^POST \/shop\/v1\/cart\/[^/]+\/items$/.test(r))).toHaveLength(1);
    held.release();
  });

  it("shows the list's summary at once and the full description when getEvent answers", async () => {
    const user = userEvent.setup();
    const { data } = await api.backend.shop.listEvents.orThrow({ locale: "en-GB" });
    const listed = data.items.find((e) => e.name === "Family Theatre");
    const { data: full } = await api.backend.shop.getEvent.orThrow({
      params: { path: { eventId: listed?.id ?? "" } },
      locale: "en-GB",
    });
    expect(full.description).not.toBe(full.summary);
    const held = holdEventDetails();
    handle = mount(container(), { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" });
    await openFromList(user, "Family Theatre");
    const step = screen
      .getByRole("heading", { level: 2, name: "Family Theatre" })
      .closest("form") as HTMLElement;
    expect(within(step).getByText(full.summary).getAttribute("aria-busy")).toBe("true");
    expect(within(step).queryByText(full.description)).toBeNull();
    held.release();
    const description = await within(step).findByText(full.description);
    expect(description.hasAttribute("aria-busy")).toBe(false);
  });
});
