import { createClient } from "@entrada/sdk";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { createSdkShopApi } from "../src/sdk";
import { container, screen, toPayment } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
let handle: ShopHandle | undefined;
afterEach(() => {
  handle?.unmount();
  document.body.innerHTML = "";
});

describe("through an @entrada/sdk client instance", () => {
  it("buys tickets with the SDK doing the HTTP, and maps its problems to the widget's errors", async () => {
    const user = userEvent.setup();
    const client = createClient({
      baseUrl: API,
      sessionToken: async () => (await api.fetchSessionToken({})).sessionToken,
    });
    const errors: string[] = [];
    handle = mount(container(), {
      api: createSdkShopApi(client),
      locale: "en-GB",
      onError: (e) => errors.push(failure(e)),
    });
    await toPayment(user);
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4000000000000002");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    expect((await screen.findByRole("alert")).textContent).toContain(tx("errors.payment-declined"));
    expect(errors).toEqual(["payment-declined"]);
    const card = screen.getByLabelText(tx("payment.card"));
    await user.clear(card);
    await user.type(card, "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });
    expect(screen.getAllByRole("img", { name: /QR code/ })).toHaveLength(1);
  });
});
