import { createMock } from "@entrada/mock-server/msw";
import { createClient, type TokenRequest } from "@entrada/sdk";
import type { Cart } from "@entrada/shop-widget";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { HttpResponse, http } from "msw";
import { setupServer } from "msw/node";
import { StrictMode, version } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "../src/App";
import { shopSessionEndpoint } from "../src/backend";

const API = "https://api.entrada.test";
// Session tokens live 60 s (holds 600 s): a token can expire on the mock clock while the cart still holds seats.
const mock = createMock({ baseUrl: API, seed: { shop: { sessionTtlSeconds: 60 } } });
const server = setupServer(...mock.handlers);
const requests: string[] = [];
server.events.on("request:start", ({ request }) => {
  requests.push(`${request.method} ${new URL(request.url).pathname}`);
});

// The host's backend, with the API client's credentials (this test process plays the server too).
const entrada = createClient({
  baseUrl: API,
  clientId: "entrada-shop",
  clientSecret: "shop-secret",
  allowBrowserSecrets: true,
});
let endpoint = shopSessionEndpoint(entrada);
const backendCalls: TokenRequest[] = [];
const granted: Array<{ sessionToken: string; sessionId: string | undefined }> = [];
const backendRoute = http.post(new URL("/backend/shop-session", location.href).href, async ({ request }) => {
  const body = (await request.json()) as TokenRequest;
  backendCalls.push(body);
  const grant = await endpoint("visitor-1", body);
  granted.push({ sessionToken: grant.sessionToken, sessionId: grant.sessionId });
  return HttpResponse.json(grant);
});

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
  endpoint = shopSessionEndpoint(entrada);
  requests.length = 0;
  backendCalls.length = 0;
  granted.length = 0;
  document.body.innerHTML = "";
});
afterAll(() => server.close());

const advanceClock = async (advanceSeconds: number) => {
  const r = await fetch(`${API}/__mock/clock`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ advanceSeconds }),
  });
  expect(r.ok).toBe(true);
};

const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe("the widget in a React 18 host", () => {
  it("runs on the host's React 18", () => {
    expect(version).toMatch(/^18\./);
  });

  it("renders under StrictMode without duplicate requests and follows the host's language prop", async () => {
    server.use(backendRoute);
    render(
      <StrictMode>
        <App apiUrl={API} />
      </StrictMode>,
    );
    await screen.findByRole("heading", { level: 2, name: "Veranstaltungen" }, { timeout: 5000 });
    await screen.findAllByRole("heading", { level: 3, name: "Familientheater" }, { timeout: 5000 });
    // The venues filter filled in too: both answers are rendered, so a doubled request (StrictMode's second mount
    // sends it at once) would be in the list by now.
    await waitFor(() =>
      expect((screen.getByLabelText("Ort") as HTMLSelectElement).options.length).toBeGreaterThan(1),
    );
    expect(requests.filter((r) => r === "GET /shop/v1/discovery/events")).toHaveLength(1);
    // One token for the visitor, from the host's backend.
    expect(backendCalls).toEqual([{}]);

    fireEvent.change(screen.getByLabelText("Site language"), { target: { value: "fr-CH" } });
    await screen.findByRole("heading", { level: 2, name: "Événements" });
    await waitFor(() =>
      expect(screen.getAllByRole("heading", { level: 3 })[0]?.textContent).toMatch(/Théâtre/),
    );
  });

  it("renews the visitor's shop session when the token expires mid-purchase, and buys the same cart", async () => {
    server.use(backendRoute);
    const carts: Array<Cart | null> = [];
    render(
      <StrictMode>
        <App apiUrl={API} onCartChange={(cart) => carts.push(cart)} />
      </StrictMode>,
    );
    fireEvent.change(screen.getByLabelText("Site language"), { target: { value: "en-GB" } });
    await screen.findByRole("heading", { level: 2, name: "Events" }, { timeout: 5000 });
    const choose = await screen.findAllByRole(
      "button",
      { name: "Choose tickets for Family Theatre" },
      { timeout: 5000 },
    );
    fireEvent.click(choose[0] as HTMLElement);
    await screen.findByRole("heading", { level: 2, name: "Family Theatre" }, { timeout: 5000 });
    fireEvent.click(screen.getAllByRole("button", { name: /^One more: / })[0] as HTMLElement);
    fireEvent.click(screen.getByRole("button", { name: "Add to cart" }));
    await screen.findByRole("heading", { level: 2, name: "Your cart" }, { timeout: 5000 });
    const cartId = carts.at(-1)?.id ?? "";
    expect(cartId).toMatch(/^crt_/);
    expect(backendCalls).toEqual([{}]);
    const first = granted[0];

    // The token expires; the hold does not.
    await advanceClock(120);
    const stale = await fetch(`${API}/shop/v1/cart/${cartId}`, {
      headers: { authorization: `Bearer ${first?.sessionToken}` },
    });
    expect(stale.status).toBe(401);

    fireEvent.click(screen.getByRole("button", { name: "Continue to your details" }));
    await screen.findByLabelText("First name", {}, { timeout: 5000 });
    type("First name", "Anna");
    type("Last name", "Muster");
    type("Email", "anna@example.ch");
    fireEvent.click(screen.getByRole("button", { name: "Continue to payment" }));
    await screen.findByRole("heading", { level: 2, name: "Payment" }, { timeout: 5000 });
    fireEvent.click(await screen.findByRole("radio", { name: /card/i }));
    type("Card number", "4242424242424242");
    fireEvent.click(screen.getByRole("button", { name: /^Pay CHF/ }));
    await screen.findByRole(
      "heading",
      { level: 2, name: "Thank you! Your tickets are ready." },
      { timeout: 5000 },
    );
    const confirmed = await screen.findByText(/^Order ord_\w+ \(cart /);

    // The widget sent the rejected token and the session the backend had returned; the backend renewed it.
    expect(backendCalls).toEqual([{}, { rejectedToken: first?.sessionToken, sessionId: first?.sessionId }]);
    expect(granted[1]?.sessionId).toBe(first?.sessionId);
    expect(granted[1]?.sessionToken).not.toBe(first?.sessionToken);
    // The purchase is of the cart filled before the token expired.
    expect(confirmed.textContent).toMatch(new RegExp(`^Order ord_\\w+ \\(cart ${cartId}\\) confirmed$`));
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
