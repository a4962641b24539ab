/**
 * Renewable shop sessions end to end against the mock server (`@entrada/mock-server/msw`): a browser client whose
 * `sessionToken` function asks the host's backend (an SDK client with credentials), the token expiring mid-journey
 * on the mock clock, and the cart still readable through the renewed token.
 */
import { createMock } from "@entrada/mock-server/msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createClient, type SessionTokenGrant, type TokenRequest } from "../../src/index.ts";

const BASE = "https://api.renewal.entrada.test";
// Session tokens live 60 s here (holds 600 s): a token expires while the cart still holds its seats.
const mock = createMock({ baseUrl: BASE, seed: { shop: { sessionTtlSeconds: 60 } } });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  mock.reset();
  server.resetHandlers();
});
afterAll(() => server.close());

const advanceClock = async (advanceSeconds: number) => {
  const r = await fetch(`${BASE}/__mock/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceSeconds }),
  });
  expect(r.ok).toBe(true);
};

/** The host's backend: one shop session per visitor, renewed (never replaced) when the browser's token is rejected. */
function hostBackend() {
  const entrada = createClient({ baseUrl: BASE, clientId: "entrada-shop", clientSecret: "shop-secret" });
  let visitor: { sessionToken: string; sessionId: string } | undefined;
  const calls: TokenRequest[] = [];
  const renewals: Array<{ before: string; after: string }> = [];
  // POST /backend/shop-session, body {} | { rejectedToken, sessionId }
  const endpoint = async (body: TokenRequest): Promise<SessionTokenGrant> => {
    calls.push(body);
    if (!visitor) {
      const { data } = await entrada.sessions.create.orThrow();
      visitor = { sessionToken: data.sessionToken, sessionId: data.sessionId };
    } else if (body.rejectedToken === visitor.sessionToken) {
      // Renew the session stored for this visitor; the browser's sessionId is only a hint, checked here.
      if (body.sessionId !== visitor.sessionId) throw new Error("not this visitor's session");
      const { data } = await entrada.sessions.renew.orThrow(visitor.sessionId);
      renewals.push({ before: visitor.sessionId, after: data.sessionId });
      visitor = { sessionToken: data.sessionToken, sessionId: data.sessionId };
    }
    return visitor;
  };
  return { entrada, endpoint, calls, renewals, visitor: () => visitor };
}

describe("renewable shop sessions through the SDK", () => {
  it("a token expiring mid-journey is renewed under the same session and the cart is still readable", async () => {
    const host = hostBackend();
    const browser = createClient({ baseUrl: BASE, sessionToken: host.endpoint, locale: "en-GB" });

    const { data: events } = await browser.shop.listEvents.orThrow({ params: { query: { limit: 20 } } });
    let line: { articleId: string; slotId: string } | undefined;
    for (const summary of events.items.filter((e) => e.available)) {
      const { data: event } = await browser.shop.getEvent.orThrow({
        params: { path: { eventId: summary.id } },
      });
      const slot = event.slots.find((s) => s.available > 0);
      const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
      if (slot && article) {
        line = { articleId: article.id, slotId: slot.id };
        break;
      }
    }
    if (!line) throw new Error("the seed has no bookable event");
    const { data: cart } = await browser.shop.createCart.orThrow({ body: { currency: "CHF" } });
    await browser.shop.addCartItem.orThrow({
      params: { path: { id: cart.id } },
      body: { ...line, quantity: 2 },
    });
    const first = host.visitor();
    expect(host.calls).toEqual([{}]);

    // The token expires (the hold does not).
    await advanceClock(120);
    const stale = await fetch(`${BASE}/shop/v1/cart/${cart.id}`, {
      headers: { authorization: `Bearer ${first?.sessionToken}` },
    });
    expect(stale.status).toBe(401);

    const { data: seen, error } = await browser.shop.getCart({ params: { path: { id: cart.id } } });
    expect(error).toBeUndefined();
    expect(seen?.id).toBe(cart.id);
    expect(seen?.items.map((i) => [i.slotId, i.quantity])).toEqual([[line.slotId, 2]]);
    // The browser client told the backend which token was rejected and which session it belonged to.
    expect(host.calls).toEqual([{}, { rejectedToken: first?.sessionToken, sessionId: first?.sessionId }]);
    expect(host.renewals).toEqual([{ before: first?.sessionId, after: first?.sessionId }]);
    expect(await browser.getAccessToken()).toBe(host.visitor()?.sessionToken);
    expect(host.visitor()?.sessionToken).not.toBe(first?.sessionToken);

    // Writes go on under the renewed token, with no further renewal.
    await browser.shop.setCartCustomer.orThrow({
      params: { path: { id: cart.id } },
      body: { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" },
    });
    expect(host.calls).toHaveLength(2);
  });

  it("a new session instead of a renewal would not see the cart", async () => {
    const host = hostBackend();
    const { data: first } = await host.entrada.sessions.create.orThrow();
    const own = createClient({ baseUrl: BASE, sessionToken: first.sessionToken });
    const { data: cart } = await own.shop.createCart.orThrow({ body: {} });
    const { data: other } = await host.entrada.sessions.create.orThrow();
    const stranger = createClient({ baseUrl: BASE, sessionToken: other.sessionToken });
    expect((await stranger.shop.getCart({ params: { path: { id: cart.id } } })).error).toMatchObject({
      status: 404,
    });
    const { data: renewed } = await host.entrada.sessions.renew.orThrow(first.sessionId);
    const again = createClient({ baseUrl: BASE, sessionToken: renewed.sessionToken });
    expect((await again.shop.getCart.orThrow({ params: { path: { id: cart.id } } })).data.id).toBe(cart.id);
  });

  it("renew() of a session the API has forgotten (48 h after its token expired) starts a new one", async () => {
    const host = hostBackend();
    const { data: first } = await host.entrada.sessions.create.orThrow({
      allowedOrigins: ["https://tickets.example.ch"],
    });
    await advanceClock(60 + 2 * 86_400 + 1);
    const { data: next } = await host.entrada.sessions.renew.orThrow(first.sessionId, {
      allowedOrigins: ["https://tickets.example.ch"],
    });
    expect(next.sessionId).not.toBe(first.sessionId);
    expect(next.allowedOrigins).toEqual(["https://tickets.example.ch"]);
    // The new session renews normally.
    const { data: renewed } = await host.entrada.sessions.renew.orThrow(next.sessionId);
    expect(renewed.sessionId).toBe(next.sessionId);
  });

  it("a second 401 (the backend hands out a token the API refuses too) is a typed error, not a loop", async () => {
    const host = hostBackend();
    const { data: session } = await host.entrada.sessions.create.orThrow();
    const asked: TokenRequest[] = [];
    const browser = createClient({
      baseUrl: BASE,
      // A broken backend: always the same (expired) token.
      sessionToken: (request) => {
        asked.push(request);
        return { sessionToken: session.sessionToken, sessionId: session.sessionId };
      },
    });
    await advanceClock(120);
    const { error } = await browser.shop.listVenues();
    expect(error).toMatchObject({ kind: "problem", status: 401 });
    expect(asked).toEqual([{}, { rejectedToken: session.sessionToken, sessionId: session.sessionId }]);
  });
});
