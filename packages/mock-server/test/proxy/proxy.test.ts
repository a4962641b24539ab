/**
 * The contract proxy over real HTTP: no drift in front of the unmodified mock, exactly the drifting relay's three
 * differences in front of it, the report as JSON and HTML, an unreachable upstream (502 / --fallback), non-JSON
 * where JSON is declared, a body larger than the check cap streamed through whole.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import type { DriftReport } from "../../src/proxy/drift.ts";
import { type DriftingRelay, RELAY_DIFFERENCES, startDriftingRelay } from "../../src/proxy/drifting-relay.ts";
import { type ProxyServer, startProxyServer } from "../../src/proxy/server.ts";
import { bodyOf, problemOf } from "../helpers.ts";

const basic = `Basic ${btoa("entrada-demo:demo-secret")}`;

async function token(base: string): Promise<string> {
  const response = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=Shop",
  });
  return (await bodyOf(response, "createToken")).access_token;
}

/** The same small journey through any base URL: discovery, an event, venues, a cart created twice with one key. */
async function journey(base: string): Promise<Record<string, string>> {
  const auth = { authorization: `Bearer ${await token(base)}` };
  const verdicts: Record<string, string> = {};
  const events = await fetch(`${base}/shop/v1/discovery/events?limit=3`, { headers: auth });
  verdicts.listEvents = events.headers.get("x-entrada-contract") ?? "";
  const first = (await bodyOf(events, "listEvents")).items[0]?.id;
  const event = await fetch(`${base}/shop/v1/discovery/events/${first}`, { headers: auth });
  verdicts.getEvent = event.headers.get("x-entrada-contract") ?? "";
  const venues = await fetch(`${base}/shop/v1/discovery/venues`, { headers: auth });
  verdicts.listVenues = venues.headers.get("x-entrada-contract") ?? "";
  for (const round of ["createCart", "createCart replay"]) {
    const cart = await fetch(`${base}/shop/v1/cart`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "proxy-test-key-1" },
      body: JSON.stringify({ currency: "CHF" }),
    });
    verdicts[round] = cart.headers.get("x-entrada-contract") ?? "";
  }
  return verdicts;
}

function differences(report: DriftReport) {
  return report.operations
    .flatMap((op) => op.drift.map((d) => ({ operationId: op.operationId, rule: d.rule, pointer: d.pointer })))
    .sort((a, b) => `${a.operationId}${a.pointer}`.localeCompare(`${b.operationId}${b.pointer}`));
}

describe("in front of the unmodified mock", () => {
  let mock: MockServer;
  let proxy: ProxyServer;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false, docs: false, rateLimit: false });
    proxy = await startProxyServer({ upstream: mock.url, port: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await mock.close();
  });

  it("passes every answer through with X-Entrada-Contract: ok and reports no drift", async () => {
    const verdicts = await journey(proxy.url);
    expect(Object.values(verdicts)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    const report = (await (
      await fetch(`${proxy.url}/__mock/drift`, { headers: { accept: "application/json" } })
    ).json()) as DriftReport;
    expect(report.operations).toEqual([]);
    expect(report.checked).toBe(6);
    expect(report.conforming).toBe(6);
  });

  it("reports a request that breaks the contract apart from the upstream's drift", async () => {
    const response = await fetch(`${proxy.url}/shop/v1/discovery/events?limit=many`);
    expect(response.headers.get("x-entrada-contract")).toBe("request /query/limit");
    const report = (await (await fetch(`${proxy.url}/__mock/drift`)).json()) as DriftReport;
    expect(report.operations).toEqual([]);
    expect(report.requests.map((op) => [op.operationId, op.drift.map((d) => [d.rule, d.pointer])])).toEqual([
      ["listEvents", [["request", "/query/limit"]]],
    ]);
    const page = await (
      await fetch(`${proxy.url}/__mock/drift`, { headers: { accept: "text/html" } })
    ).text();
    expect(page).toContain("No drift: every answer checked so far conforms to the contract.");
    expect(page).toContain("Requests that break the contract");
    await fetch(`${proxy.url}/__mock/drift`, { method: "DELETE" });
  });

  it("passes the upstream's bytes through unchanged (a replay keeps its header and log id)", async () => {
    const auth = { authorization: `Bearer ${await token(proxy.url)}` };
    const direct = await fetch(`${mock.url}/shop/v1/discovery/venues`, { headers: auth });
    const proxied = await fetch(`${proxy.url}/shop/v1/discovery/venues`, { headers: auth });
    expect(await proxied.text()).toBe(await direct.text());
    expect(proxied.headers.get("content-type")).toBe(direct.headers.get("content-type"));
    const replay = await fetch(`${proxy.url}/shop/v1/cart`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json", "idempotency-key": "proxy-test-key-1" },
      body: JSON.stringify({ currency: "CHF" }),
    });
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
  });
});

describe("in front of the drifting relay", () => {
  let relay: DriftingRelay;
  let proxy: ProxyServer;
  beforeAll(async () => {
    relay = await startDriftingRelay();
    proxy = await startProxyServer({ upstream: relay.url, port: 0 });
  });
  afterAll(async () => {
    await proxy.close();
    await relay.close();
  });

  it("reports exactly the relay's three differences, in the header and in the report", async () => {
    const verdicts = await journey(proxy.url);
    expect(verdicts).toEqual({
      listEvents: "ok",
      getEvent: "schema /body/name",
      listVenues: "status /status",
      createCart: "ok",
      "createCart replay": "replay /header/idempotent-replayed",
    });
    const report = (await (
      await fetch(`${proxy.url}/__mock/drift`, { headers: { accept: "application/json" } })
    ).json()) as DriftReport;
    expect(differences(report)).toEqual(
      [...RELAY_DIFFERENCES].sort((a, b) =>
        `${a.operationId}${a.pointer}`.localeCompare(`${b.operationId}${b.pointer}`),
      ),
    );
    const venues = report.operations.find((op) => op.operationId === "listVenues");
    expect(venues?.drift[0]).toMatchObject({
      count: 1,
      message: expect.stringContaining("410"),
      example: { request: { method: "GET", path: "/shop/v1/discovery/venues" }, response: { status: 410 } },
    });
  });

  it("serves the report as a page to a browser and clears it on DELETE", async () => {
    const page = await fetch(`${proxy.url}/__mock/drift`, { headers: { accept: "text/html" } });
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("<h1>Contract drift</h1>");
    expect(html).toContain("listVenues");
    expect(html).toContain("/body/name");
    expect(html).toContain("Status 410 is not declared");
    expect((await fetch(`${proxy.url}/__mock/drift`, { method: "DELETE" })).status).toBe(204);
    const cleared = (await (await fetch(`${proxy.url}/__mock/drift`)).json()) as DriftReport;
    expect(cleared.operations).toEqual([]);
  });
});

describe("bad input", () => {
  let odd: Server;
  let oddUrl: string;
  const big = JSON.stringify({
    items: Array.from({ length: 40_000 }, (_, i) => ({ id: `ven_${i}`, name: "x", city: "y" })),
  });
  beforeAll(async () => {
    // An upstream that answers HTML where JSON is declared, and a venue list far larger than the check cap.
    odd = createServer((req, res) => {
      if (req.url?.startsWith("/entrance/v1/gates")) {
        res.writeHead(501, { "content-type": "application/problem+json" });
        res.end('{"type":"about:blank","title":"Not Implemented","status":501}');
      } else if (req.url?.startsWith("/shop/v1/discovery/events")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end("<html>maintenance</html>");
      } else {
        res.writeHead(200, {
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(big)),
        });
        res.end(big);
      }
    });
    await new Promise<void>((resolve) => odd.listen(0, "127.0.0.1", resolve));
    oddUrl = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => odd.close(() => resolve())));

  it("answers 502 problem+json naming an unreachable upstream", async () => {
    const proxy = await startProxyServer({ upstream: "http://127.0.0.1:9", port: 0 });
    try {
      const response = await fetch(`${proxy.url}/shop/v1/discovery/venues`);
      expect(response.status).toBe(502);
      expect(response.headers.get("content-type")).toBe("application/problem+json");
      const body = await problemOf(response);
      expect(body.upstream).toBe("http://127.0.0.1:9");
      expect(body.detail).toContain("http://127.0.0.1:9");
      // The proxy's own answer is not the upstream's drift.
      expect(response.headers.get("x-entrada-contract")).toBe("upstream unreachable");
      expect(proxy.drift.report()).toMatchObject({ unreachable: 1, checked: 0, operations: [] });
    } finally {
      await proxy.close();
    }
  });

  it("answers locally under --fallback, marked as such", async () => {
    const proxy = await startProxyServer({ upstream: "http://127.0.0.1:9", port: 0, fallback: true });
    try {
      const response = await fetch(`${proxy.url}/connect/token`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials&scope=Shop",
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("x-entrada-source")).toBe("local-fallback");
      expect(response.headers.get("x-entrada-contract")).toBe("ok");
      expect(proxy.drift.fallbacks).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it("answers locally under --fallback what the upstream has not built (501)", async () => {
    const proxy = await startProxyServer({ upstream: oddUrl, port: 0, fallback: true });
    try {
      const direct = await fetch(`${proxy.url}/shop/v1/discovery/events`);
      expect(direct.headers.get("x-entrada-source")).toBeNull();
      await direct.arrayBuffer();
      const response = await fetch(`${proxy.url}/entrance/v1/gates`);
      expect(response.headers.get("x-entrada-source")).toBe("local-fallback");
      expect(response.status).toBe(401); // the local mock's answer: no token sent
      expect(response.headers.get("content-type")).toBe("application/problem+json");
    } finally {
      await proxy.close();
    }
  });

  it("reports non-JSON where JSON is declared and passes it through", async () => {
    const proxy = await startProxyServer({ upstream: oddUrl, port: 0 });
    try {
      const response = await fetch(`${proxy.url}/shop/v1/discovery/events`);
      expect(await response.text()).toBe("<html>maintenance</html>");
      expect(response.headers.get("x-entrada-contract")).toBe("json /body");
    } finally {
      await proxy.close();
    }
  });

  it("streams a body over the check cap through whole, saying it was not checked", async () => {
    const proxy = await startProxyServer({ upstream: oddUrl, port: 0, maxCheckedBytes: 64 * 1024 });
    try {
      const response = await fetch(`${proxy.url}/shop/v1/discovery/venues`);
      expect(response.headers.get("x-entrada-contract")).toBe("ok; body not checked (over 65536 bytes)");
      const text = await response.text();
      expect(text.length).toBe(big.length);
      expect(text).toBe(big);
    } finally {
      await proxy.close();
    }
  });
});
