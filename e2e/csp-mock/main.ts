/**
 * A page that runs the mock's browser build (msw service worker, precompiled validators) and talks to it with the
 * SDK, as a front end without a backend does. e2e/tests/mock-csp.spec.ts serves it with a strict CSP header
 * (`script-src 'self'`, no 'unsafe-eval') and reads the outcome from `#results`.
 */
import { startBrowserMock } from "@entrada/mock-server/browser";
import { createClient } from "@entrada/sdk";

async function journey() {
  const mock = await startBrowserMock({ baseUrl: `${location.origin}/api` });
  const client = createClient({
    baseUrl: mock.baseUrl,
    clientId: "entrada-demo",
    clientSecret: "demo-secret",
    scope: "Shop",
    locale: "en-GB",
    // The mock's public demo client on a page with no backend (a real shop page gets a session token instead).
    allowBrowserSecrets: true,
  });
  const events = await client.shop.listEvents.orThrow({ params: { query: { limit: 2 } } });
  const first = events.data.items[0];
  if (!first) throw new Error("the mock listed no events");
  const detail = await client.shop.getEvent.orThrow({ params: { path: { eventId: first.id } } });
  const slot = detail.data.slots[0];
  const article = detail.data.pricingAssortments[0]?.articles[0];
  if (!slot || !article) throw new Error(`event ${first.id} has no slot or article`);
  const cart = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
  const added = await client.shop.addCartItem.orThrow({
    params: { path: { id: cart.data.id } },
    body: { articleId: article.id, slotId: slot.id, quantity: 2 },
  });
  // Validation failures: a query parameter and a body field the contract rejects (validated in the worker's page
  // by the precompiled validators).
  const badQuery = await client.shop.listEvents({ params: { query: { limit: 0 } } });
  const badBody = await client.shop.addCartItem({
    params: { path: { id: cart.data.id } },
    body: { articleId: article.id, slotId: slot.id, quantity: 0 },
  });
  // The wire format itself: problem+json, for a validation failure (the client's authenticated fetch) and for a
  // request without a token.
  const invalid = await client.fetch(`${mock.baseUrl}/shop/v1/discovery/events?limit=abc`);
  const anonymous = await fetch(`${mock.baseUrl}/shop/v1/discovery/events`, {
    headers: { "accept-language": "en-GB" },
  });
  return {
    logId: events.meta.logId ?? null,
    contentLanguage: events.meta.contentLanguage ?? null,
    events: events.data.items.length,
    cart: { id: cart.data.id, status: cart.data.status },
    items: added.data.items.map((i) => i.quantity),
    badQuery: badQuery.error && {
      status: badQuery.error.status,
      slug: badQuery.error.kind === "problem" ? badQuery.error.slug : badQuery.error.kind,
      pointers: badQuery.error.kind === "problem" ? badQuery.error.errors.map((e) => e.pointer) : [],
    },
    badBody: badBody.error && {
      status: badBody.error.status,
      slug: badBody.error.kind === "problem" ? badBody.error.slug : badBody.error.kind,
      pointers: badBody.error.kind === "problem" ? badBody.error.errors.map((e) => e.pointer) : [],
    },
    raw: [invalid, anonymous].map((r) => ({ status: r.status, contentType: r.headers.get("content-type") })),
    rawBodies: [await invalid.json(), await anonymous.json()],
  };
}

const results = document.getElementById("results") as HTMLElement;
journey().then(
  (outcome) => {
    results.textContent = JSON.stringify(outcome);
    document.body.dataset.state = "done";
  },
  (error: unknown) => {
    results.textContent = String(error instanceof Error ? (error.stack ?? error.message) : error);
    document.body.dataset.state = "failed";
  },
);
