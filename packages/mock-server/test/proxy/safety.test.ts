/**
 * What the proxy keeps is safe and bounded: no secret or personal data in the drift report, the log or the
 * recordings (the test looks for each one it sent); recordings become a seed the mock serves again and examples;
 * `/__mock` needs the admin token off loopback and never lists secrets in full; every store has a cap.
 */

import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { DriftStore } from "../../src/proxy/drift.ts";
import { Recorder } from "../../src/proxy/recorder.ts";
import { ReplayTracker } from "../../src/proxy/replay.ts";
import { seedMain } from "../../src/proxy/seed-from.ts";
import { startProxyServer } from "../../src/proxy/server.ts";
import { bodyOf } from "../helpers.ts";

const EMAIL = "anna.meier@example.ch";
const PHONE = "+41795551234";
const PHONE_SPACED = "+41 79 555 12 34";
const CARD = "4242424242424242";
const SECRET = "demo-secret";
const basic = `Basic ${btoa(`entrada-demo:${SECRET}`)}`;

async function tokenFor(base: string): Promise<string> {
  const response = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials&scope=Shop",
  });
  return (await bodyOf(response, "createToken")).access_token;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe("secrets and personal data", () => {
  let mock: MockServer;
  let echo: Server;
  let echoUrl: string;
  beforeAll(async () => {
    mock = await startMockServer({ port: 0, webhooks: false, docs: false, rateLimit: false });
    // An upstream that breaks the contract (status 299) and echoes what it got, credentials included.
    echo = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        res.writeHead(299, {
          "content-type": "application/json",
          "x-echo-auth": String(req.headers.authorization),
        });
        res.end(
          JSON.stringify({
            got: Buffer.concat(chunks).toString("utf8"),
            authorization: req.headers.authorization,
            note: `call ${PHONE_SPACED} or write to ${EMAIL}, card ${CARD}`,
          }),
        );
      });
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await mock.close();
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  });

  it("keeps none of them in recordings, the drift report or the log", async () => {
    const dir = mkdtempSync(join(tmpdir(), "entrada-record-"));
    const report = join(dir, "report.json");
    const lines: string[] = [];
    const proxy = await startProxyServer({
      upstream: mock.url,
      port: 0,
      record: join(dir, "rec"),
      log: (l) => lines.push(l),
    });
    const drifting = await startProxyServer({
      upstream: echoUrl,
      port: 0,
      report,
      log: (l) => lines.push(l),
    });
    const sent: string[] = [SECRET, EMAIL, PHONE, PHONE_SPACED, CARD, btoa(`entrada-demo:${SECRET}`)];
    try {
      const tokenResponse = await fetch(`${proxy.url}/connect/token`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        body: `grant_type=client_credentials&scope=Shop&client_secret_hint=${SECRET}`,
      });
      const token = (await bodyOf(tokenResponse, "createToken")).access_token;
      sent.push(token);
      const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
      const events = await bodyOf(
        await fetch(`${proxy.url}/shop/v1/discovery/events?limit=1`, { headers: auth }),
        "listEvents",
      );
      const event = await bodyOf(
        await fetch(`${proxy.url}/shop/v1/discovery/events/${events.items[0]?.id}`, { headers: auth }),
        "getEvent",
      );
      const cart = await bodyOf(
        await fetch(`${proxy.url}/shop/v1/cart`, { method: "POST", headers: auth, body: "{}" }),
        "createCart",
      );
      await fetch(`${proxy.url}/shop/v1/cart/${cart.id}/items`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          articleId: event.pricingAssortments[0]?.articles[0]?.id,
          slotId: event.slots[0]?.id,
          quantity: 1,
        }),
      });
      const customer = JSON.stringify({ firstName: "Anna", lastName: "Meier", email: EMAIL, phone: PHONE });
      await fetch(`${proxy.url}/shop/v1/cart/${cart.id}/customer`, {
        method: "PUT",
        headers: auth,
        body: customer,
      });
      await fetch(`${proxy.url}/shop/v1/cart/${cart.id}/payment-provider`, {
        method: "PUT",
        headers: auth,
        body: JSON.stringify({ paymentProviderId: "card" }),
      });
      const checkout = await fetch(`${proxy.url}/shop/v1/cart/${cart.id}/checkout`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({ paymentMethod: { cardNumber: CARD } }),
      });
      expect(checkout.status).toBe(200);
      // The same personal data through the upstream that echoes it with a contract break: it reaches the report.
      const echoed = await fetch(
        `${drifting.url}/shop/v1/cart/crt_x/customer?email=${encodeURIComponent(EMAIL)}`,
        {
          method: "PUT",
          headers: auth,
          body: customer,
        },
      );
      expect(echoed.status).toBe(299);
      expect(await echoed.text()).toContain(EMAIL); // the client gets the upstream's answer unchanged
      const page = await (
        await fetch(`${drifting.url}/__mock/drift`, { headers: { accept: "text/html" } })
      ).text();
      const json = await (await fetch(`${drifting.url}/__mock/drift`)).text();
      expect(json).toContain("setCartCustomer");
      await drifting.close();
      const recorded = filesUnder(join(dir, "rec"));
      expect(recorded.map((f) => f.split("/").at(-2)).sort()).toEqual(
        expect.arrayContaining(["createToken", "setCartCustomer", "checkoutCart", "getEvent"]),
      );
      const kept = [
        page,
        json,
        readFileSync(report, "utf8"),
        lines.join("\n"),
        ...recorded.map((f) => readFileSync(f, "utf8")),
      ];
      for (const secret of sent)
        for (const text of kept)
          expect(text.includes(secret), `${secret} kept in ${text.slice(0, 80)}`).toBe(false);
      // What is kept still reads: redacted, in the shape it had.
      const customerFile = recorded.find((f) => f.includes("setCartCustomer")) as string;
      expect(JSON.parse(readFileSync(customerFile, "utf8")).request.body.json).toMatchObject({
        firstName: "Anna",
        email: "redacted@example.invalid",
      });
    } finally {
      await proxy.close();
      await drifting.close();
    }
  });
});

describe("seed --from", () => {
  it("turns recordings into a seed the mock serves again, and into examples to review", async () => {
    const upstream = await startMockServer({ port: 0, webhooks: false, docs: false, rateLimit: false });
    const dir = mkdtempSync(join(tmpdir(), "entrada-seed-"));
    const proxy = await startProxyServer({ upstream: upstream.url, port: 0, record: dir });
    let eventId = "";
    let original: Record<string, unknown> = {};
    try {
      const token = await tokenFor(proxy.url);
      const headers = { authorization: `Bearer ${token}` };
      await fetch(`${proxy.url}/shop/v1/discovery/venues`, { headers });
      const list = await bodyOf(
        await fetch(`${proxy.url}/shop/v1/discovery/events?limit=2`, { headers }),
        "listEvents",
      );
      eventId = list.items[1]?.id ?? "";
      for (const language of ["de-CH", "en-GB"])
        original = (await (
          await fetch(`${proxy.url}/shop/v1/discovery/events/${eventId}`, {
            headers: { ...headers, "accept-language": language },
          })
        ).json()) as Record<string, unknown>;
    } finally {
      await proxy.close();
      await upstream.close();
    }
    const out: string[] = [];
    expect(seedMain(["--from", dir], { out: (l) => out.push(l), err: (l) => out.push(l) })).toBe(0);
    expect(out[0]).toMatch(/→ .*seed\.json \(4 venues, 1 events;/);
    const seed = JSON.parse(readFileSync(join(dir, "seed.json"), "utf8"));
    const replayed = await startMockServer({
      port: 0,
      webhooks: false,
      docs: false,
      seed,
      validateResponses: "strict",
    });
    try {
      const token = await tokenFor(replayed.url);
      const served = (await (
        await fetch(`${replayed.url}/shop/v1/discovery/events/${eventId}`, {
          headers: { authorization: `Bearer ${token}`, "accept-language": "en-GB" },
        })
      ).json()) as Record<string, unknown>;
      for (const field of [
        "id",
        "slug",
        "name",
        "summary",
        "description",
        "venue",
        "slots",
        "pricingAssortments",
      ])
        expect(served[field], field).toEqual(original[field]);
      const listed = await bodyOf(
        await fetch(`${replayed.url}/shop/v1/discovery/events`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        "listEvents",
      );
      expect(listed.items).toHaveLength(1);
    } finally {
      await replayed.close();
    }
    const examples = JSON.parse(readFileSync(join(dir, "examples", "getEvent.json"), "utf8"));
    expect(examples).toMatchObject({
      operationId: "getEvent",
      examples: [{ status: 200, mediaType: "application/json" }],
    });
  });
});

describe("safe to share", () => {
  it("off loopback, the proxy's /__mock needs the generated admin token (header, bearer or a browser's cookie)", async () => {
    const mock = await startMockServer({ port: 0, webhooks: false, docs: false });
    const proxy = await startProxyServer({ upstream: mock.url, port: 0, host: "0.0.0.0" });
    try {
      expect(proxy.adminToken).toMatch(/^adm_[A-Za-z0-9_-]{32}$/);
      const base = `http://127.0.0.1:${proxy.port}`;
      const refused = await fetch(`${base}/__mock/drift`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("content-type")).toBe("application/problem+json");
      expect(
        (await fetch(`${base}/__mock/drift`, { headers: { authorization: `Bearer ${proxy.adminToken}` } }))
          .status,
      ).toBe(200);
      expect(
        (await fetch(`${base}/__mock/drift`, { headers: { "x-entrada-admin-token": "wrong" } })).status,
      ).toBe(401);
      const browser = await fetch(`${base}/__mock/drift?admin_token=${proxy.adminToken}`, {
        redirect: "manual",
      });
      expect(browser.status).toBe(303);
      expect(browser.headers.get("location")).toBe("/__mock/drift");
      const cookie = (browser.headers.get("set-cookie") ?? "").split(";")[0] as string;
      expect(browser.headers.get("set-cookie")).toContain("HttpOnly");
      expect((await fetch(`${base}/__mock/drift`, { headers: { cookie } })).status).toBe(200);
      // The API itself is relayed without the admin token.
      expect((await fetch(`${base}/shop/v1/discovery/venues`)).status).toBe(401);
    } finally {
      await proxy.close();
      await mock.close();
    }
  });

  it("off loopback, the mock's controls need the token, list no secret in full and keep the payment page open", async () => {
    const mock = await startMockServer({
      port: 0,
      host: "0.0.0.0",
      webhooks: false,
      docs: false,
      adminToken: "adm_test-token",
    });
    const base = `http://127.0.0.1:${mock.port}`;
    try {
      expect(mock.adminToken).toBe("adm_test-token");
      expect((await fetch(`${base}/__mock/clients`)).status).toBe(401);
      expect((await fetch(`${base}/__mock/reset`, { method: "POST" })).status).toBe(401);
      const admin = { "x-entrada-admin-token": "adm_test-token", accept: "application/json" };
      const clients = await (await fetch(`${base}/__mock/clients`, { headers: admin })).text();
      expect(clients).toContain("entrada-demo");
      expect(clients).not.toContain(SECRET);
      expect(clients).toContain("demo…");
      const index = await (
        await fetch(`${base}/__mock`, { headers: { ...admin, accept: "text/html" } })
      ).text();
      expect(index).not.toContain(SECRET);
      expect((await fetch(`${base}/__mock/pay/pay_unknown`)).status).not.toBe(401);
    } finally {
      await mock.close();
    }
  });

  it("off loopback under a base path, the controls there are guarded and masked the same", async () => {
    const mock = await startMockServer({
      port: 0,
      host: "0.0.0.0",
      basePath: "/api",
      webhooks: false,
      docs: false,
      adminToken: "adm_test-token",
    });
    const base = `http://127.0.0.1:${mock.port}/api`;
    try {
      expect((await fetch(`${base}/__mock/clients`)).status).toBe(401);
      expect((await fetch(`${base}/__mock/reset`, { method: "POST" })).status).toBe(401);
      const admin = { "x-entrada-admin-token": "adm_test-token", accept: "application/json" };
      const clients = await fetch(`${base}/__mock/clients`, { headers: admin });
      expect(clients.status).toBe(200);
      const text = await clients.text();
      expect(text).toContain("entrada-demo");
      expect(text).not.toContain(SECRET);
    } finally {
      await mock.close();
    }
  });

  it("on loopback nothing changes (the mock is a local tool)", async () => {
    const mock = await startMockServer({ port: 0, webhooks: false, docs: false });
    try {
      expect(mock.adminToken).toBeNull();
      expect(await (await fetch(`${mock.url}/__mock/clients`)).text()).toContain(SECRET);
    } finally {
      await mock.close();
    }
  });
});

describe("caps", () => {
  it("the drift store keeps at most maxEntries differences and counts the rest", () => {
    const store = new DriftStore(null, 3);
    for (let i = 0; i < 10; i++)
      store.record(
        {
          operationId: `op${i}`,
          method: "GET",
          template: "/x",
          path: "/x",
          status: 200,
          headers: {},
          body: null,
        },
        [{ rule: "status", pointer: "/status", message: "m" }],
      );
    expect(store.size).toBe(3);
    expect(store.report().dropped).toBe(7);
    // Array indices fold: the same field of another item counts, it adds no entry.
    const folded = new DriftStore(null, 10);
    for (let i = 0; i < 5; i++)
      folded.record(
        {
          operationId: "op",
          method: "GET",
          template: "/x",
          path: "/x",
          status: 200,
          headers: {},
          body: null,
        },
        [{ rule: "schema", pointer: `/body/items/${i}/name`, message: "m" }],
      );
    expect(folded.size).toBe(1);
    expect(folded.report().operations[0]?.drift[0]).toMatchObject({
      count: 5,
      pointer: "/body/items/0/name",
    });
  });

  it("example bodies are cut at maxExampleBytes", () => {
    const store = new DriftStore(null, 10, 100);
    store.record(
      {
        operationId: "op",
        method: "GET",
        template: "/x",
        path: "/x",
        status: 200,
        headers: { "content-type": "text/plain" },
        body: "y".repeat(5000),
      },
      [{ rule: "media-type", pointer: "/header/content-type", message: "m" }],
    );
    expect(store.report().operations[0]?.drift[0]?.example.response.body).toEqual({
      text: "y".repeat(100),
      truncated: true,
    });
  });

  it("the recorder stops at maxPerOperation and maxFiles", () => {
    const recorder = new Recorder(mkdtempSync(join(tmpdir(), "entrada-cap-")), {
      maxPerOperation: 2,
      maxFiles: 3,
      maxBodyBytes: 10,
    });
    const input = (operationId: string) => ({
      operationId,
      method: "GET",
      template: "/x",
      path: "/x",
      source: "upstream" as const,
      requestHeaders: {},
      requestBody: null,
      status: 200,
      responseHeaders: {},
      responseBody: new TextEncoder().encode("z".repeat(50)),
      truncated: false,
    });
    expect([1, 2, 3].map(() => recorder.record(input("a")) !== null)).toEqual([true, true, false]);
    expect([1, 2].map(() => recorder.record(input("b")) !== null)).toEqual([true, false]);
    expect(recorder.skipped).toBe(2);
  });

  it("the replay tracker keeps at most max keys, oldest out", () => {
    const tracker = new ReplayTracker(2);
    for (const key of ["k1", "k2", "k3"])
      tracker.observe({ method: "POST", path: "/c", headers: { "idempotency-key": key }, body: null }, 201, {
        "x-log-id": key,
      });
    expect(tracker.size).toBe(2);
    // k1 was evicted: a repeat is not judged as a replay; k3 is.
    expect(
      tracker.observe(
        { method: "POST", path: "/c", headers: { "idempotency-key": "k1" }, body: null },
        201,
        {},
      ),
    ).toEqual([]);
    expect(
      tracker
        .observe({ method: "POST", path: "/c", headers: { "idempotency-key": "k3" }, body: null }, 201, {})
        .map((v) => v.pointer),
    ).toEqual(["/header/idempotent-replayed", "/header/x-log-id"]);
  });
});
