import { createShopClient, EntradaError, isErrorKind } from "@entrada/sdk/shop";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { createSdkShopApi } from "../src/sdk";
import { container, openEvent, screen, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

/** A fault rule of the mock's developer controls (`POST /__mock/faults`). */
const fault = async (rule: Record<string, unknown>) => {
  const response = await api.mock.core.handle({
    method: "POST",
    url: `${API}/__mock/faults`,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify(rule)),
  });
  expect(response.status).toBeLessThan(300);
};

/**
 * The widget over the SDK's shop client without retries (each failure reaches the widget at once) and with a 1 s
 * attempt timeout; every error below is made by the SDK's transport from what the mock (or the wire) answered.
 */
function mountShop(
  sessionToken: Parameters<typeof createShopClient>[0]["sessionToken"] = api.fetchSessionToken,
) {
  const errors: EntradaError[] = [];
  const client = createShopClient({ baseUrl: API, sessionToken, retry: false, timeoutMs: 1000 });
  handles.push(
    mount(container(), {
      api: createSdkShopApi(client),
      locale: "en-GB",
      onError: (error) => errors.push(error),
    }),
  );
  return errors;
}

const ADD_ITEM = { operationId: "addCartItem" };

describe("each kind of SDK error, shown translated with its way forward", () => {
  it.each([
    {
      what: "a dropped connection (network)",
      setUp: () => fault({ kind: "drop", ...ADD_ITEM, times: 1 }),
      kind: "network",
      text: "errors.network",
    },
    {
      what: "no answer in time (timeout)",
      // The mock holds the request past the SDK's 1 s attempt timeout, then drops it (nothing is added).
      setUp: () => fault({ kind: "drop", latencyMs: 5000, ...ADD_ITEM, times: 1 }),
      kind: "timeout",
      text: "errors.network",
    },
    {
      what: "a 429 (rate-limited problem)",
      setUp: () => fault({ kind: "rate-limit", ...ADD_ITEM, times: 1 }),
      kind: "rate-limited",
      text: "errors.rate-limited",
    },
    {
      what: "a 503 (service-unavailable problem, no text of its own)",
      setUp: () => fault({ kind: "unavailable", ...ADD_ITEM, times: 1 }),
      kind: "service-unavailable",
      text: "errors.generic",
    },
    {
      what: "a 500 (internal-error problem)",
      setUp: () => fault({ kind: "error", ...ADD_ITEM, times: 1 }),
      kind: "internal-error",
      text: "errors.generic",
    },
    {
      what: "HTML from a proxy (unexpected-body)",
      setUp: () =>
        api.server.use(
          http.post(
            `${API}/shop/v1/cart/:id/items`,
            () =>
              new HttpResponse("<h1>Bad gateway</h1>", {
                status: 502,
                headers: { "content-type": "text/html" },
              }),
            { once: true },
          ),
        ),
      kind: "unexpected-body",
      text: "errors.generic",
    },
  ])("$what: $text, Try again adds the tickets", async ({ setUp, kind, text }) => {
    const user = userEvent.setup();
    const errors = mountShop();
    await openEvent(user, "Family Theatre");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await setUp();
    await user.click(screen.getByRole("button", { name: tx("event.add") }));

    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert.textContent).toContain(tx(text));
    // The host hears the SDK's own error: the same instance the transport rejected with.
    expect(errors).toHaveLength(1);
    const [error] = errors as [EntradaError];
    expect(error).toBeInstanceOf(EntradaError);
    expect(failure(error)).toBe(kind);
    // A problem carries the response's log id: shown for support requests.
    if (isErrorKind(error, "problem")) expect(error.logId).toBeTruthy();
    if (error.logId !== undefined)
      expect(alert.textContent).toContain(tx("errors.reference", { id: error.logId }));

    await user.click(within(alert).getByRole("button", { name: tx("errors.retry") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") }, { timeout: 5000 });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("a session-token function that fails (oauth): says the session expired, in place of the catalogue", async () => {
    const errors = mountShop(async () => {
      throw new Error("the host's backend is down");
    });
    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert.textContent).toContain(tx("errors.session-expired"));
    expect(within(alert).getByRole("button", { name: tx("errors.retry") })).toBeTruthy();
    expect(errors.map(failure)).toContain("oauth");
  });
});
