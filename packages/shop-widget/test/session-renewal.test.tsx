import { createClient } from "@entrada/sdk";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Cart, Order, ShopHandle } from "../src/index";
import { mount } from "../src/index";
import { createSdkShopApi } from "../src/sdk";
import { container, openEvent, screen, within } from "./support/dom";
import { failure } from "./support/errors";
import { API, setupMockApi } from "./support/mock";
import { tx } from "./support/texts";

// Session tokens live 60 s here, holds 600 s: a token can expire while the cart's hold is still good.
const api = setupMockApi({ baseUrl: API, seed: { shop: { sessionTtlSeconds: 60 } } });
const handles: ShopHandle[] = [];
afterEach(() => {
  for (const h of handles.splice(0)) h.unmount();
  document.body.innerHTML = "";
});

const advanceClock = (seconds: number) =>
  api.mock.core.handle({
    method: "POST",
    url: `${API}/__mock/clock`,
    headers: { "content-type": "application/json" },
    body: new TextEncoder().encode(JSON.stringify({ advanceSeconds: seconds })),
  });

/** GET a cart the way the browser does: with a session token only. */
const cartWith = (token: string, cartId: string) =>
  fetch(`${API}/shop/v1/cart/${cartId}`, { headers: { authorization: `Bearer ${token}` } });

describe("renewable shop sessions", () => {
  it("keeps the cart when the session token expires mid-journey (renewed under the same shop session)", async () => {
    const user = userEvent.setup();
    const carts: Array<Cart | null> = [];
    const fetchSessionToken = vi.fn(api.fetchSessionToken);
    handles.push(
      mount(container(), {
        baseUrl: API,
        fetchSessionToken,
        locale: "en-GB",
        onCartChange: (cart) => carts.push(cart),
      }),
    );
    await openEvent(user, "Family Theatre");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") }, { timeout: 5000 });
    const cartId = carts.at(-1)?.id ?? "";
    expect(cartId).toMatch(/^crt_/);
    const [first] = api.sessions();
    const firstToken = api.currentToken() ?? "";
    expect(first?.renewed).toBe(false);

    // The token expires (the hold does not): the next request gets a 401.
    await advanceClock(120);
    expect((await cartWith(firstToken, cartId)).status).toBe(401);

    await user.click(screen.getByRole("button", { name: tx("cart.next") }));
    await user.type(await screen.findByLabelText(tx("details.firstName")), "Anna");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Muster");
    await user.type(screen.getByLabelText(tx("details.email")), "anna@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    await screen.findByRole("heading", { level: 2, name: tx("payment.heading") }, { timeout: 5000 });
    expect(screen.queryByRole("alert")).toBeNull();

    // The widget told the backend which session the rejected token belonged to; the backend renewed it.
    expect(fetchSessionToken).toHaveBeenCalledTimes(2);
    expect(fetchSessionToken).toHaveBeenLastCalledWith({
      rejectedToken: firstToken,
      sessionId: first?.sessionId,
    });
    expect(api.sessions()).toEqual([
      { sessionId: first?.sessionId, renewed: false },
      { sessionId: first?.sessionId, renewed: true },
    ]);
    // Same cart, with its ticket and the buyer, seen through the renewed token.
    expect(carts.at(-1)?.id).toBe(cartId);
    const renewedToken = api.currentToken() ?? "";
    expect(renewedToken).not.toBe(firstToken);
    const seen = await cartWith(renewedToken, cartId);
    expect(seen.status).toBe(200);
    const cart = (await seen.json()) as Cart;
    expect(cart.items).toHaveLength(1);
    expect(cart.items[0]?.quantity).toBe(1);
    expect(cart.customer?.email).toBe("anna@example.ch");

    // Back in the cart, the line is still there.
    await user.click(screen.getByRole("button", { name: tx("payment.back") }));
    await user.click(await screen.findByRole("button", { name: tx("details.back") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") });
    const lines = within(screen.getByRole("table")).getAllByRole("rowheader");
    expect(lines[0]?.textContent).toMatch(/^Family Theatre/);
  });

  it("through the SDK adapter: the SDK renews the same session mid-journey and the purchase completes with the cart", async () => {
    const user = userEvent.setup();
    const carts: Array<Cart | null> = [];
    const orders: Order[] = [];
    const errors: string[] = [];
    // The host's browser-side SDK client asks the same backend endpoint as fetchSessionToken would.
    const sessionToken = vi.fn(api.fetchSessionToken);
    const client = createClient({ baseUrl: API, sessionToken });
    handles.push(
      mount(container(), {
        api: createSdkShopApi(client),
        locale: "en-GB",
        onCartChange: (cart) => carts.push(cart),
        onCheckoutComplete: (order) => orders.push(order),
        onError: (e) => errors.push(failure(e)),
      }),
    );
    await openEvent(user, "Family Theatre");
    await user.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    await user.click(screen.getByRole("button", { name: tx("event.add") }));
    await screen.findByRole("heading", { level: 2, name: tx("cart.heading") }, { timeout: 5000 });
    const cartId = carts.at(-1)?.id ?? "";
    expect(cartId).toMatch(/^crt_/);
    const [first] = api.sessions();
    const firstToken = api.currentToken() ?? "";
    expect(sessionToken).toHaveBeenCalledTimes(1);
    expect(sessionToken).toHaveBeenLastCalledWith({});

    // The token expires mid-journey (the hold does not).
    await advanceClock(120);
    expect((await cartWith(firstToken, cartId)).status).toBe(401);

    await user.click(screen.getByRole("button", { name: tx("cart.next") }));
    await user.type(await screen.findByLabelText(tx("details.firstName")), "Anna");
    await user.type(screen.getByLabelText(tx("details.lastName")), "Muster");
    await user.type(screen.getByLabelText(tx("details.email")), "anna@example.ch");
    await user.click(screen.getByRole("button", { name: tx("details.next") }));
    await screen.findByRole("heading", { level: 2, name: tx("payment.heading") }, { timeout: 5000 });
    await user.click(await screen.findByRole("radio", { name: /card/i }));
    await user.type(screen.getByLabelText(tx("payment.card")), "4242424242424242");
    await user.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole("heading", { level: 2, name: tx("confirmation.heading") }, { timeout: 5000 });

    // The SDK asked once more, naming the rejected token and its session; the backend renewed that session.
    expect(sessionToken).toHaveBeenCalledTimes(2);
    expect(sessionToken).toHaveBeenLastCalledWith({ rejectedToken: firstToken, sessionId: first?.sessionId });
    expect(api.sessions()).toEqual([
      { sessionId: first?.sessionId, renewed: false },
      { sessionId: first?.sessionId, renewed: true },
    ]);
    expect(errors).toEqual([]);
    // One purchase, of the cart filled before the token expired.
    expect(orders).toHaveLength(1);
    expect(orders[0]?.cartId).toBe(cartId);
    expect(orders[0]?.items.map((i) => i.quantity)).toEqual([1]);
    expect(orders[0]?.customer.email).toBe("anna@example.ch");
    expect(screen.getAllByRole("img", { name: /QR code/ })).toHaveLength(1);
  });

  it("a new session (not renewed) does not see the previous session's cart", async () => {
    const { data: first } = await api.backend.sessions.create.orThrow({});
    const created = await fetch(`${API}/shop/v1/cart`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.sessionToken}`, "content-type": "application/json" },
      body: "{}",
    });
    const cartId = ((await created.json()) as Cart).id;
    const { data: other } = await api.backend.sessions.create.orThrow({});
    expect(other.sessionId).not.toBe(first.sessionId);
    expect((await cartWith(other.sessionToken, cartId)).status).toBe(404);
    const { data: renewed } = await api.backend.sessions.create.orThrow({ sessionId: first.sessionId });
    expect(renewed.sessionId).toBe(first.sessionId);
    expect((await cartWith(renewed.sessionToken, cartId)).status).toBe(200);
    // Renewal does not revoke: the earlier token works until its own expiry.
    expect((await cartWith(first.sessionToken, cartId)).status).toBe(200);
  });

  it("renews only the creating client's sessions, keeps the origins, and refuses unknown ones", async () => {
    const { data: first } = await api.backend.sessions.create.orThrow({
      allowedOrigins: ["https://tickets.example.ch"],
    });
    const { data: renewed } = await api.backend.sessions.create.orThrow({ sessionId: first.sessionId });
    expect(renewed.allowedOrigins).toEqual(["https://tickets.example.ch"]);

    const unknown = await api.backend.sessions.create({ sessionId: "ses_01JD3ZF7G8H9J0K1M2N3P4Q5R6" });
    expect(unknown.data).toBeUndefined();
    expect(unknown.error).toMatchObject({ status: 404 });

    const otherClient = createClient({
      baseUrl: API,
      clientId: "entrada-demo",
      clientSecret: "demo-secret",
      scope: "Shop",
      allowBrowserSecrets: true,
    });
    const foreign = await otherClient.sessions.create({ sessionId: first.sessionId });
    expect(foreign.data).toBeUndefined();
    expect(foreign.error).toMatchObject({ status: 403 });
  });

  it("a session stays renewable while its carts may exist (token + cart TTL + retention), then is unknown", async () => {
    const { data: first } = await api.backend.sessions.create.orThrow({});
    // 60 s token + 24 h cart TTL + 24 h retention (the mock's defaults), less a minute: still renewable.
    await advanceClock(60 + 2 * 86_400 - 60);
    const { data: renewed } = await api.backend.sessions.create.orThrow({ sessionId: first.sessionId });
    expect(renewed.sessionId).toBe(first.sessionId);
    // The renewal restarted the window; once it has passed, the session is gone.
    await advanceClock(60 + 2 * 86_400 + 1);
    const gone = await api.backend.sessions.create({ sessionId: first.sessionId });
    expect(gone.error).toMatchObject({ status: 404 });
  });
});
