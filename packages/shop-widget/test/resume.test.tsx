import { render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createElement, StrictMode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Order, ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { EntradaShop } from "../src/react/index";
import { container, toPayment, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

const api = setupMockApi();
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
  history.replaceState(null, "", "/");
});

/** The hosted payment page: the buyer presses Pay / Fail / Cancel; the provider redirects back (303). */
async function payOnHostedPage(
  redirectUrl: string,
  result: "success" | "failure" | "cancel",
): Promise<string> {
  const response = await api.mock.core.handle({
    method: "POST",
    url: redirectUrl,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify({ result })),
  });
  expect(response.status).toBe(303);
  return response.headers.location as string;
}

async function leaveForPayment(instanceId: string) {
  const user = userEvent.setup();
  const navigate = vi.fn<(url: string) => void>();
  const beforeRedirect = vi.fn(async () => true);
  const handle = mount(container(instanceId), {
    baseUrl: API,
    fetchSessionToken: api.fetchSessionToken,
    locale: "en-GB",
    instanceId,
    navigate,
    beforeRedirect,
  });
  await toPayment(user);
  await user.click(await screen.findByRole("radio", { name: /Hosted payment page/ }));
  await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
  await waitFor(() => expect(navigate).toHaveBeenCalledTimes(1));
  const redirectUrl = navigate.mock.calls[0]?.[0] as string;
  expect(beforeRedirect).toHaveBeenCalledWith(expect.objectContaining({ url: redirectUrl }));
  // The page is left: the widget goes away with it.
  handle.unmount();
  document.body.innerHTML = "";
  return redirectUrl;
}

describe("payment redirects", () => {
  it("leaves a resume record with references only, then completes exactly once on return", async () => {
    const redirectUrl = await leaveForPayment("main");
    const record = JSON.parse(sessionStorage.getItem("entrada-shop:main:resume") ?? "{}");
    expect(Object.keys(record).sort()).toEqual(["cartId", "paymentId", "savedAt", "step", "v"]);
    expect(JSON.stringify(record)).not.toMatch(/Anna|Muster|example\.ch/);
    expect(record.paymentId).toMatch(/^pay_/);

    // Back on the host page with the provider's parameters.
    const back = await payOnHostedPage(redirectUrl, "success");
    const url = new URL(back);
    expect(url.searchParams.get("entrada_shop")).toBe("main");
    expect(url.searchParams.get("entrada_payment")).toBe(record.paymentId);
    history.replaceState(null, "", `${url.pathname}${url.search}`);
    const historyLength = history.length;

    // A host that mounts twice, plus a React StrictMode mount of the same instance: one completion.
    const completed: Order[] = [];
    const onCheckoutComplete = (order: Order) => completed.push(order);
    const element = container("main");
    const config = {
      baseUrl: API,
      fetchSessionToken: api.fetchSessionToken,
      locale: "en-GB" as const,
      instanceId: "main",
      paymentPollIntervalMs: 20,
      onCheckoutComplete,
    };
    const first = mount(element, config);
    const second = mount(element, config);
    expect(second).toBe(first);
    handles.push(first);
    render(createElement(StrictMode, null, createElement(EntradaShop, config)));

    // Both widgets (the mounted one and the React one) are done: the one that took the return parameters shows
    // the confirmation, the other the catalogue (the parameters were gone); one completion was told.
    const settled = () =>
      [...document.querySelectorAll(".entrada-shop")]
        .map((root) =>
          root.querySelector("h2")?.textContent === tx("confirmation.heading")
            ? "confirmed"
            : root.querySelector("h3")
              ? "catalogue"
              : "busy",
        )
        .sort();
    await expect.poll(settled, { timeout: 5000 }).toEqual(["catalogue", "confirmed"]);
    expect(screen.getAllByRole("img", { name: /QR code of ticket 1/ }).length).toBeGreaterThanOrEqual(1);
    expect(location.search).toBe("");
    expect(history.length).toBe(historyLength);
    expect(completed).toHaveLength(1);
    expect(sessionStorage.getItem("entrada-shop:main:resume")).toBeNull();

    // A reload of the confirmed page does nothing again.
    first.unmount();
    handles.length = 0;
    const again = mount(container("main-2"), config);
    handles.push(again);
    await screen.findAllByRole("heading", { level: 3 }, { timeout: 5000 });
    expect(completed).toHaveLength(1);
  });

  it("returns to the payment step with the cart and an explanation when the buyer cancelled", async () => {
    const redirectUrl = await leaveForPayment("shop");
    const back = new URL(await payOnHostedPage(redirectUrl, "cancel"));
    history.replaceState(null, "", `${back.pathname}${back.search}`);
    const errors: string[] = [];
    handles.push(
      mount(container("shop"), {
        baseUrl: API,
        fetchSessionToken: api.fetchSessionToken,
        locale: "en-GB",
        paymentPollIntervalMs: 20,
        onError: (e) => errors.push(failure(e)),
      }),
    );
    const alert = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(alert.textContent).toContain(tx("errors.payment-cancelled"));
    // What became of the payment is no error of a call: the buyer is told, the host is not.
    expect(errors).toEqual([]);
    expect(screen.getByRole("heading", { level: 2, name: tx("payment.heading") })).toBeTruthy();
    // The order summary is back: the cart with its items, ready to pay again.
    expect((await screen.findByRole("rowheader", { name: /Family Theatre/ })).textContent).toContain(
      "Family Theatre",
    );
    expect(screen.getByRole("button", { name: /^Pay CHF/ })).toBeTruthy();
    expect(location.search).toBe("");
  });

  it("checks a pending payment every paymentPollIntervalMs, at most 10 times, then offers to check again", async () => {
    await leaveForPayment("shop");
    const { paymentId } = JSON.parse(sessionStorage.getItem("entrada-shop:shop:resume") ?? "{}");
    // Back without paying (the provider has no result yet): the payment stays pending.
    history.replaceState(null, "", `/?entrada_shop=shop&entrada_payment=${paymentId}`);
    const checks: string[] = [];
    const counting: typeof fetch = (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === `/shop/v1/payments/${paymentId}`) checks.push(request.method);
      return fetch(request);
    };
    // Only the poll's interval is faked: requests and rendering run as usual.
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      handles.push(
        mount(container("shop"), {
          baseUrl: API,
          fetchSessionToken: api.fetchSessionToken,
          fetch: counting,
          locale: "en-GB",
          paymentPollIntervalMs: 1000,
        }),
      );
      await expect.poll(() => checks.length).toBe(1);
      expect(screen.getByText(tx("payment.confirming"))).toBeTruthy();
      // One more check per interval while the payment is pending…
      for (let n = 2; n <= 10; n += 1) {
        await vi.advanceTimersByTimeAsync(1000);
        await expect.poll(() => checks.length).toBe(n);
      }
      const alert = await screen.findByRole("alert");
      expect(alert.textContent).toContain(tx("errors.payment-pending"));
      // … and none after the tenth.
      await vi.advanceTimersByTimeAsync(5000);
      expect(checks).toHaveLength(10);
      await userEvent.setup().click(within(alert).getByRole("button", { name: tx("errors.check") }));
      await expect.poll(() => checks.length).toBe(11);
      expect(checks.every((method) => method === "GET")).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("stays on the page when beforeRedirect says no (asynchronously)", async () => {
    const user = userEvent.setup();
    const navigate = vi.fn();
    const beforeRedirect = vi.fn(async () => false);
    handles.push(
      mount(container("shop"), {
        baseUrl: API,
        fetchSessionToken: api.fetchSessionToken,
        locale: "en-GB",
        navigate,
        beforeRedirect,
      }),
    );
    await toPayment(user);
    await user.click(await screen.findByRole("radio", { name: /Hosted payment page/ }));
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    // The host said no, and the pay button is back: the widget decided to stay (it navigates before that).
    await waitFor(() => expect(beforeRedirect).toHaveBeenCalledTimes(1));
    await waitFor(() =>
      expect(screen.getByRole("button", { name: /^Pay CHF/ }).getAttribute("aria-disabled")).toBe("false"),
    );
    expect(navigate).not.toHaveBeenCalled();
    // The record is there for the host, should it send the buyer on later.
    expect(JSON.parse(sessionStorage.getItem("entrada-shop:shop:resume") ?? "{}").paymentId).toMatch(/^pay_/);
  });

  it("ignores another instance's return parameters", async () => {
    history.replaceState(null, "", "/?entrada_shop=other&entrada_payment=pay_x&entrada_result=success");
    handles.push(
      mount(container("shop"), { baseUrl: API, fetchSessionToken: api.fetchSessionToken, locale: "en-GB" }),
    );
    await screen.findAllByRole("heading", { level: 3 }, { timeout: 5000 });
    expect(location.search).toContain("entrada_shop=other");
  });
});
