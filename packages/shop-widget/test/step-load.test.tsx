import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { container, screen } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

// The event step's chunk fails to load the first time it is asked for (a dropped connection, a deploy that
// removed the old chunk), then loads.
const chunk = vi.hoisted(() => ({ failures: 1 }));
vi.mock("../src/ui/steps/EventStep", async (importOriginal) => {
  if (chunk.failures > 0) {
    chunk.failures -= 1;
    throw new TypeError("Failed to fetch dynamically imported module");
  }
  return importOriginal();
});

const api = setupMockApi({ baseUrl: API });
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

describe("a later step whose code does not load", () => {
  it("says so in place with Try again (not an endless Loading…), tells the host, and loads it on retry", async () => {
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
    const choose = await screen.findAllByRole(
      "button",
      { name: tx("events.chooseFor", { name: "Family Theatre" }) },
      { timeout: 5000 },
    );
    await user.click(choose[0] as HTMLElement);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(tx("errors.network"));
    expect(screen.queryByText(tx("shop.loading"))).toBeNull();
    expect(errors).toEqual(["network"]);
    await user.click(screen.getByRole("button", { name: tx("errors.retry") }));
    await screen.findByRole("heading", { level: 2, name: "Family Theatre" });
    expect(screen.queryByRole("alert")).toBeNull();
    expect(chunk.failures).toBe(0);
  });
});
