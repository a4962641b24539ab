import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Api,
  bearer,
  type Cart,
  expectEventsConform,
  pendingPayment,
  readyCart,
  startApi,
} from "../helpers.ts";

let api: Api;
let token: string;
beforeAll(async () => {
  api = await startApi({ session: "redirect-suite" });
  token = await api.token();
});
afterAll(() => api.close());

async function pending(returnUrl = "https://tickets.example.ch/checkout/return?step=pay") {
  const { cart } = await readyCart(api, token, { provider: "redirect", quantity: 2 });
  const r = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
    method: "POST",
    headers: bearer(token),
    json: { returnUrl },
  });
  expect(r.status).toBe(202);
  const body = await pendingPayment(r);
  expect(body.status).toBe("pending");
  return { cart, ...body };
}

function submit(redirectUrl: string, result: string): Promise<Response> {
  return fetch(redirectUrl, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `result=${result}`,
    redirect: "manual",
  });
}

describe("redirect payment journey", () => {
  it("serves a script-free hosted page and returns to returnUrl with the result; the journey resumes", async () => {
    const { cart, paymentId, redirectUrl } = await pending();
    // The cart is locked while the payment is pending.
    const locked = (await (
      await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) })
    ).json()) as Cart;
    expect(locked.status).toBe("locked");
    const blocked = await api.fetch(`/shop/v1/cart/${cart.id}/customer`, {
      method: "PUT",
      headers: bearer(token),
      json: { firstName: "Eve", lastName: "X", email: "eve@example.ch" },
    });
    expect(blocked.status).toBe(409);
    expect((await blocked.json()).type).toMatch(/cart-locked$/);

    // The page lives in the same mock session as the checkout (carried in the URL).
    expect(redirectUrl).toContain("mockSession=redirect-suite");
    const page = await fetch(redirectUrl, { headers: { "accept-language": "fr-CH" } });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = page.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self' https://tickets.example.ch");
    const html = await page.text();
    expect(html).not.toMatch(/<script|style=|onclick/i);
    expect(html).toContain('lang="fr"');
    expect(html).toContain("Payer");
    expect(html).toMatch(/value="success"[\s\S]*value="failure"[\s\S]*value="cancel"/);

    const done = await submit(redirectUrl, "success");
    expect(done.status).toBe(303);
    const back = new URL(done.headers.get("location") ?? "");
    expect(back.origin + back.pathname).toBe("https://tickets.example.ch/checkout/return");
    expect(back.searchParams.get("step")).toBe("pay");
    expect(back.searchParams.get("entrada_payment")).toBe(paymentId);
    expect(back.searchParams.get("entrada_result")).toBe("success");

    const payment = await (
      await api.fetch(`/shop/v1/payments/${paymentId}`, { headers: bearer(token) })
    ).json();
    expect(payment.status).toBe("succeeded");
    const order = await (
      await api.fetch(`/shop/v1/orders/${payment.orderId}`, { headers: bearer(token) })
    ).json();
    expect(order.tickets).toHaveLength(2);
  });

  it("completes exactly once: racing Pay and Fail, one wins and later submissions change nothing", async () => {
    const { cart, paymentId, redirectUrl } = await pending();
    const results = await Promise.all([
      submit(redirectUrl, "success"),
      submit(redirectUrl, "failure"),
      submit(redirectUrl, "success"),
    ]);
    const outcomes = results.map((r) =>
      new URL(r.headers.get("location") ?? "").searchParams.get("entrada_result"),
    );
    expect(new Set(outcomes).size).toBe(1);
    const payment = await (
      await api.fetch(`/shop/v1/payments/${paymentId}`, { headers: bearer(token) })
    ).json();
    const snapshot = await (await api.fetch("/__mock/snapshot")).json();
    const orders = Object.values(snapshot.world.shop.orders as Record<string, { cartId: string }>).filter(
      (o) => o.cartId === cart.id,
    );
    expect(orders).toHaveLength(outcomes[0] === "success" ? 1 : 0);
    expect(payment.status).toBe(outcomes[0] === "success" ? "succeeded" : "failed");
    const late = await submit(redirectUrl, "cancel");
    expect(new URL(late.headers.get("location") ?? "").searchParams.get("entrada_result")).toBe(outcomes[0]);
    const types = (await (await api.fetch("/__mock/events")).json()).items
      .filter((e: { data: { payment?: { id: string } } }) => e.data.payment?.id === paymentId)
      .map((e: { type: string }) => e.type)
      .filter((t: string) => t !== "cart.locked");
    expect(types.filter((t: string) => t.startsWith("payment.") && t !== "payment.pending")).toHaveLength(1);
  });

  it("failure and cancel unlock the cart with its items, so the buyer can try again", async () => {
    for (const result of ["failure", "cancel"]) {
      const { cart, paymentId, redirectUrl } = await pending();
      const r = await submit(redirectUrl, result);
      expect(new URL(r.headers.get("location") ?? "").searchParams.get("entrada_result")).toBe(result);
      const payment = await (
        await api.fetch(`/shop/v1/payments/${paymentId}`, { headers: bearer(token) })
      ).json();
      expect(payment.status).toBe(result === "failure" ? "failed" : "cancelled");
      expect(payment.orderId).toBeNull();
      const open = (await (
        await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) })
      ).json()) as Cart;
      expect(open.status).toBe("open");
      expect(open.items[0]?.quantity).toBe(2);
    }
  });

  it("requires a returnUrl for the redirect provider", async () => {
    const { cart } = await readyCart(api, token, { provider: "redirect" });
    const r = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: {},
    });
    expect(r.status).toBe(422);
    expect((await r.json()).errors[0].pointer).toBe("/body/returnUrl");
    await expectEventsConform(api, "redirect-suite");
  });
});

describe("redirect payment expiry", () => {
  it("expires a pending payment after its window, unlocks the cart and emits payment.expired", async () => {
    const { cart, paymentId, redirectUrl } = await pending();
    await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 1801 } });
    token = await api.token();
    const payment = await (
      await api.fetch(`/shop/v1/payments/${paymentId}`, { headers: bearer(token) })
    ).json();
    expect(payment.status).toBe("failed");
    const open = (await (
      await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token) })
    ).json()) as Cart;
    expect(open.status).toBe("open");
    // A late Pay on the hosted page changes nothing and returns the final result.
    const late = await submit(redirectUrl, "success");
    expect(new URL(late.headers.get("location") ?? "").searchParams.get("entrada_result")).toBe("failure");
    const events = (await (await api.fetch("/__mock/events?type=payment.expired")).json()).items;
    expect(events.map((e: { data: { payment: { id: string } } }) => e.data.payment.id)).toContain(paymentId);
    await expectEventsConform(api, "redirect-suite");
  });
});
