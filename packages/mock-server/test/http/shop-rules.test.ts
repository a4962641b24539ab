/**
 * Rules the shop shares between operations: one cart-status check for every change and the checkout, the shop
 * session registry (`ShopState.sessions`) travelling with the world, and absolute links below a base path.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ajvSchemaCompiler } from "../../src/compiler/ajv.ts";
import { createEntradaMock } from "../../src/index.ts";
import { startMockServer } from "../../src/node/index.ts";
import {
  type Api,
  bearer,
  bodyOf,
  mockSnapshot,
  paidOrder,
  pendingPayment,
  readyCart,
  startApi,
} from "../helpers.ts";

interface Problem {
  type: string;
  detail: string;
  cartId?: string;
  orderId?: string | null;
  paymentId?: string | null;
}

let api: Api;
let token: string;
const SESSION = "shop-rules";

beforeAll(async () => {
  api = await startApi({ session: SESSION });
  token = await api.token();
});
afterAll(() => api.close());

/** A change (set the customer) and a checkout of the same cart: both must refuse it the same way. */
async function changeAndCheckout(
  cartId: string,
): Promise<[Problem & { status: number }, Problem & { status: number }]> {
  const change = await api.fetch(`/shop/v1/cart/${cartId}/customer`, {
    method: "PUT",
    headers: bearer(token),
    json: { firstName: "Eve", lastName: "Keller", email: "eve@example.ch" },
  });
  const checkout = await api.fetch(`/shop/v1/cart/${cartId}/checkout`, {
    method: "POST",
    headers: bearer(token),
    json: { paymentMethod: { cardNumber: "4242424242424242" } },
  });
  return [
    { status: change.status, ...((await change.json()) as Problem) },
    { status: checkout.status, ...((await checkout.json()) as Problem) },
  ];
}

const withoutLog = ({ status, type, detail, cartId, orderId, paymentId }: Problem & { status: number }) => ({
  status,
  type,
  detail,
  cartId,
  orderId,
  paymentId,
});

describe("cart status: every change and the checkout refuse a cart that is not open alike", () => {
  it("a paid cart: 409 conflict naming the order", async () => {
    const { cart } = await readyCart(api, token);
    const paid = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { paymentMethod: { cardNumber: "4242424242424242" } },
    });
    expect(paid.status).toBe(200);
    const order = await paidOrder(paid);
    const [change, checkout] = await changeAndCheckout(cart.id);
    expect(withoutLog(checkout)).toEqual(withoutLog(change));
    expect(checkout).toMatchObject({
      status: 409,
      type: "https://docs.entrada.dev/problems/conflict",
      detail: "Der Warenkorb ist bereits bezahlt.",
      cartId: cart.id,
      orderId: order.id,
    });
  });

  it("a locked cart (redirect payment pending): 409 cart-locked naming the payment", async () => {
    const { cart } = await readyCart(api, token, { provider: "redirect" });
    const pending = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
      method: "POST",
      headers: bearer(token),
      json: { returnUrl: "https://shop.example.ch/back" },
    });
    expect(pending.status).toBe(202);
    const { paymentId } = await pendingPayment(pending);
    const [change, checkout] = await changeAndCheckout(cart.id);
    expect(withoutLog(checkout)).toEqual(withoutLog(change));
    expect(checkout).toMatchObject({
      status: 409,
      type: "https://docs.entrada.dev/problems/cart-locked",
      cartId: cart.id,
      paymentId,
    });
  });

  it("an expired cart: 409 hold-expired telling to create a new one", async () => {
    const { cart } = await readyCart(api, token);
    const advanced = await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 86_401 } });
    expect(advanced.status).toBe(200);
    token = await api.token(); // the earlier token expired with the day that passed
    const [change, checkout] = await changeAndCheckout(cart.id);
    expect(withoutLog(checkout)).toEqual(withoutLog(change));
    expect(checkout).toMatchObject({
      status: 409,
      type: "https://docs.entrada.dev/problems/hold-expired",
      detail: "Der Warenkorb ist abgelaufen. Bitte einen neuen erstellen.",
      cartId: cart.id,
    });
    await api.fetch("/__mock/clock", { method: "POST", json: { reset: true } });
  });
});

describe("shop sessions live in the shop's state", () => {
  const create = (json: Record<string, unknown> = {}) =>
    api.fetch("/shop/v1/sessions", { method: "POST", headers: bearer(token), json });

  it("are part of the snapshot: reset forgets a session, restore brings it back renewable", async () => {
    const created = await create({ allowedOrigins: ["https://shop.example.ch"] });
    expect(created.status).toBe(201);
    const { sessionId } = await bodyOf(created, "createSession");
    const snapshot = await mockSnapshot(api);
    expect(snapshot.world.shop.sessions?.[sessionId]).toMatchObject({
      clientId: "entrada-demo",
      allowedOrigins: ["https://shop.example.ch"],
    });
    expect((await api.fetch("/__mock/reset", { method: "POST" })).status).toBe(200);
    expect((await create({ sessionId })).status).toBe(404);
    expect((await api.fetch("/__mock/restore", { method: "POST", json: snapshot })).status).toBe(200);
    const renewed = await create({ sessionId });
    expect(renewed.status).toBe(201);
    // The renewal keeps the session's origins when it does not name any.
    expect(await renewed.json()).toMatchObject({ sessionId, allowedOrigins: ["https://shop.example.ch"] });
  });
});

describe("absolute links honour the base path", () => {
  it("the Location of a created resource and the image links include /api", async () => {
    const core = createEntradaMock({
      basePath: "/api",
      rateLimit: false,
      validateResponses: "strict",
      schemaCompiler: ajvSchemaCompiler,
    });
    const server = await startMockServer({ core, port: 0, webhooks: false });
    try {
      const base = `${server.url}/api`;
      const tokenResponse = await fetch(`${base}/connect/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: "grant_type=client_credentials&scope=Shop",
      });
      const { access_token } = await bodyOf(tokenResponse, "createToken");
      const created = await fetch(`${base}/webhooks/v1/subscriptions`, {
        method: "POST",
        headers: { ...bearer(access_token), "content-type": "application/json" },
        body: JSON.stringify({ url: "https://hooks.example.ch/entrada", eventTypes: ["ticket.issued"] }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { id } = await bodyOf(created, "createWebhookSubscription");
      expect(created.headers.get("location")).toBe(`${base}/webhooks/v1/subscriptions/${id}`);
      const images = await bodyOf(
        await fetch(`${base}/assets/v1/images?kind=logo&limit=1`, { headers: bearer(access_token) }),
        "listImages",
      );
      const logo = images.items[0];
      expect(logo?.url).toBe(`${base}/assets/v1/images/${logo?.id}`);
    } finally {
      await server.close();
    }
  });
});
