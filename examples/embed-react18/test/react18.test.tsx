import { createMock } from "@entrada/mock-server/msw";
import { createClient } from "@entrada/sdk";
import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { setupServer } from "msw/node";
import { StrictMode, version } from "react";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { App } from "../src/App";

const API = "https://api.entrada.test";
const mock = createMock({ baseUrl: API });
const server = setupServer(...mock.handlers);
const requests: string[] = [];
server.events.on("request:start", ({ request }) => {
  requests.push(`${request.method} ${new URL(request.url).pathname}`);
});
beforeAll(() => server.listen({ onUnhandledFrame: "error" }));
afterEach(() => {
  mock.reset();
  requests.length = 0;
  document.body.innerHTML = "";
});
afterAll(() => server.close());

const backend = createClient({
  baseUrl: API,
  clientId: "entrada-shop",
  clientSecret: "shop-secret",
  allowBrowserSecrets: true,
});
const fetchSessionToken = async () => (await backend.sessions.create.orThrow({})).data.sessionToken;

describe("the widget in a React 18 host", () => {
  it("runs on the host's React 18", () => {
    expect(version).toMatch(/^18\./);
  });

  it("renders under StrictMode without duplicate requests and follows the host's language prop", async () => {
    render(
      <StrictMode>
        <App apiUrl={API} fetchSessionToken={fetchSessionToken} />
      </StrictMode>,
    );
    await screen.findByRole("heading", { level: 2, name: "Veranstaltungen" }, { timeout: 5000 });
    await screen.findAllByRole("heading", { level: 3, name: "Familientheater" }, { timeout: 5000 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(requests.filter((r) => r === "GET /shop/v1/discovery/events")).toHaveLength(1);

    fireEvent.change(screen.getByLabelText("Site language"), { target: { value: "fr-CH" } });
    await screen.findByRole("heading", { level: 2, name: "Événements" });
    await waitFor(() =>
      expect(screen.getAllByRole("heading", { level: 3 })[0]?.textContent).toMatch(/Théâtre/),
    );
  });
});
