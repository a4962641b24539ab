import { createShopClient, EntradaError, isErrorKind } from "@entrada/sdk/shop";
import userEvent from "@testing-library/user-event";
import { HttpResponse, http } from "msw";
import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import type { ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { createSdkShopApi } from "../src/sdk";
import { container, openEvent, screen, toPayment, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
  vi.restoreAllMocks();
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
      text: "errors.timeout",
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

describe("a ticket PDF whose signed link lapsed while the page stayed open", () => {
  it("downloads through the API; a refusal is shown on the step, translated, and Try again downloads it", async () => {
    const user = userEvent.setup();
    const errors: EntradaError[] = [];
    handles.push(
      mount(container(), {
        baseUrl: API,
        fetchSessionToken: api.fetchSessionToken,
        locale: "en-GB",
        onError: (error) => errors.push(error),
      }),
    );
    await toPayment(user);
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });

    // A day later in the browser: the links' signatures have lapsed, so a click downloads with the session token.
    const later = Date.now() + 25 * 3600 * 1000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    // The saved file is the blob handed to createObjectURL (the page cannot save files here).
    const saved = vi.fn((_blob: Blob) => "blob:ticket");
    const { createObjectURL, revokeObjectURL } = URL;
    Object.assign(URL, { createObjectURL: saved, revokeObjectURL: () => {} });
    onTestFinished(() => {
      Object.assign(URL, { createObjectURL, revokeObjectURL });
    });
    // The first download is refused (a gateway's 403 problem); the SDK does not retry it.
    api.server.use(
      http.get(
        `${API}/assets/v1/tickets/:file`,
        () =>
          HttpResponse.json(
            {
              type: "https://docs.entrada.dev/problems/forbidden",
              title: "Forbidden",
              status: 403,
              logId: "log_pdf",
            },
            { status: 403, headers: { "content-type": "application/problem+json" } },
          ),
        { once: true },
      ),
    );
    const [pdf] = screen.getAllByRole("link", { name: /^Ticket 1 as PDF/ });
    await user.click(pdf as HTMLElement);

    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain(tx("errors.generic"));
    expect(alert.textContent).toContain(tx("errors.reference", { id: "log_pdf" }));
    expect(errors.map(failure)).toEqual(["forbidden"]);
    expect(saved).not.toHaveBeenCalled();

    await user.click(within(alert).getByRole("button", { name: tx("errors.retry") }));
    await expect.poll(() => saved.mock.calls.length).toBe(1);
    const blob = saved.mock.calls[0]?.[0] as Blob;
    expect(new TextDecoder().decode((await blob.arrayBuffer()).slice(0, 5))).toBe("%PDF-");
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
