import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEMO_CLIENTS, TEST_CARDS } from "@entrada/mock-server";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { createClient, type EntradaClient } from "@entrada/sdk";
import { signWebhook } from "@entrada/sdk/webhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type RunningReceiver } from "../src/main.ts";

const demo = DEMO_CLIENTS.find((c) => c.scopes.includes("Shop"));
if (!demo?.secrets[0]) throw new Error("The mock has no demo client with scope Shop");
const credentials = { clientId: demo.clientId, clientSecret: demo.secrets[0] };

async function buyTwoTickets(client: EntradaClient) {
  const { data: page } = await client.shop.listEvents.orThrow({ params: { query: { limit: 1 } } });
  const summary = page.items[0];
  if (!summary) throw new Error("The mock catalogue is empty");
  const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId: summary.id } } });
  const slot = event.slots[0];
  const article = event.pricingAssortments[0]?.articles[0];
  if (!slot || !article) throw new Error("The first event has no slot or article");
  const { data: cart } = await client.shop.createCart.orThrow({});
  const path = { path: { id: cart.id } };
  await client.shop.addCartItem.orThrow({
    params: path,
    body: { articleSlug: article.slug, slotId: slot.id, quantity: 2 },
  });
  await client.shop.setCartCustomer.orThrow({
    params: path,
    body: { firstName: "Lea", lastName: "Rossi", email: "lea.rossi@example.com" },
  });
  await client.shop.setCartPaymentProvider.orThrow({ params: path, body: { paymentProviderId: "card" } });
  const { data } = await client.shop.checkoutCart.orThrow({
    params: path,
    body: { paymentMethod: { cardNumber: TEST_CARDS.succeeds } },
  });
  if (data.status !== "completed") throw new Error("Card checkout did not complete");
  return data.order;
}

describe("webhook-receiver against the mock over HTTP", () => {
  let mock: MockServer;
  let receiver: RunningReceiver;
  let client: EntradaClient;
  const lines: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "webhook-receiver-"));

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    client = createClient({ baseUrl: mock.url, ...credentials, scope: "Shop" });
    receiver = await main({
      port: 0,
      host: "127.0.0.1",
      secrets: [],
      subscribe: { baseUrl: mock.url, ...credentials, eventTypes: ["cart.completed", "ticket.issued"] },
      databasePath: join(dir, "webhooks.sqlite"),
      retry: { baseDelayMs: 1 }, // a failed handler is tried again at once (the backoff is the SDK's, tested there)
      log: (line) => lines.push(line),
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await mock?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("subscribes itself at the mock, pointing at its own endpoint", async () => {
    const subscription = receiver.subscription;
    expect(subscription?.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const { data } = await client.webhooks.getWebhookSubscription.orThrow({
      params: { path: { subscriptionId: subscription?.id ?? "" } },
    });
    expect(data.url).toBe(receiver.url);
    expect(data.eventTypes).toEqual(["cart.completed", "ticket.issued"]);
    expect(data.enabled).toBe(true);
  });

  it("verifies the deliveries of a purchase and handles them as typed events", async () => {
    const order = await buyTwoTickets(client);
    const completed = () =>
      receiver.handled.find((e) => e.type === "cart.completed" && e.subject === order.id);
    await expect.poll(completed, { timeout: 10_000 }).toBeDefined();
    expect(completed()?.summary).toContain("lea.rossi@example.com");
    const tickets = () =>
      receiver.handled.filter(
        (e) => e.type === "ticket.issued" && order.tickets.some((t) => t.id === e.subject),
      );
    await expect.poll(() => tickets().length, { timeout: 10_000 }).toBe(2);
    const issued = tickets();
    for (const event of issued) {
      const ticket = order.tickets.find((t) => t.id === event.subject);
      expect(event.summary).toContain(ticket?.quicode);
    }
    // The subscription filters kinds: none of the cart.* or payment.* events of that purchase arrive.
    expect(new Set(receiver.handled.map((e) => e.type))).toEqual(
      new Set(["cart.completed", "ticket.issued"]),
    );
    expect(receiver.rejected).toEqual([]);

    // The mock recorded each delivery as acknowledged by the receiver's 2xx.
    const { data: deliveries } = await client.webhooks.listWebhookDeliveries.orThrow({
      params: { path: { subscriptionId: receiver.subscription?.id ?? "" } },
    });
    const ours = deliveries.items.filter((d) => receiver.handled.some((e) => e.id === d.messageId));
    expect(ours.length).toBe(receiver.handled.length);
    for (const delivery of ours) {
      expect(delivery.status).toBe("succeeded");
      expect(delivery.attempts.at(-1)?.statusCode).toBe(202); // stored, then acknowledged
    }
  });

  it("acknowledges a replayed delivery (same webhook-id) without handling it twice", async () => {
    const { data: deliveries } = await client.webhooks.listWebhookDeliveries.orThrow({
      params: { path: { subscriptionId: receiver.subscription?.id ?? "" } },
    });
    const original = deliveries.items.find(
      (d) => d.eventType === "cart.completed" && d.status === "succeeded",
    );
    if (!original) throw new Error("no succeeded cart.completed delivery to replay");
    const before = receiver.handled.length;
    const { data: replay } = await client.webhooks.replayWebhookDelivery.orThrow({
      params: { path: { deliveryId: original.id } },
    });
    expect(replay.messageId).toBe(original.messageId);
    await expect.poll(() => receiver.duplicates, { timeout: 10_000 }).toContain(original.messageId);
    expect((await receiver.inbox.stats()).pending).toBe(0);
    expect(receiver.handled.length).toBe(before);
    expect(receiver.handled.filter((e) => e.id === original.messageId)).toHaveLength(1);
  });

  it("rejects a forged delivery with 401 and a request without signature headers with 400", async () => {
    const ticket = {
      id: "tkt_FORGED1",
      orderId: "ord_FORGED1",
      eventId: "evt_FORGED1",
      slotId: null,
      articleId: "art_FORGED1",
      holderName: "Mallory",
      quicode: "Q1.tkt_FORGED1.ABCDEF",
      ticketUrl: "https://api.entrada.dev/assets/v1/tickets/tkt_FORGED1.pdf",
      status: "valid",
    };
    const body = JSON.stringify({
      type: "ticket.issued",
      timestamp: new Date().toISOString(),
      data: { ticket },
    });
    const forgedHeaders = await signWebhook({
      id: "msg_forged1",
      body,
      // Well-formed, but not this subscription's secret.
      secret: `whsec_${Buffer.from("an attacker's 24 bytes!!").toString("base64")}`,
    });
    const forged = await fetch(receiver.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...forgedHeaders },
      body,
    });
    expect(forged.status).toBe(401);
    expect(forged.headers.get("content-type")).toBe("application/problem+json");
    expect(await forged.json()).toMatchObject({ status: 401, title: "no_matching_signature" });

    // A genuine signature over other bytes (the body tampered with in transit) fails the same way.
    const secret = receiver.subscription?.secret ?? "";
    const signed = await signWebhook({ id: "msg_signed1", body, secret });
    const tampered = await fetch(receiver.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...signed },
      body: body.replace("Mallory", "Mallory2"),
    });
    expect(tampered.status).toBe(401);

    const unsigned = await fetch(receiver.url, { method: "POST", body });
    expect(unsigned.status).toBe(400);
    expect(await unsigned.json()).toMatchObject({ status: 400, title: "missing_header" });

    expect(receiver.rejected.map((r) => [r.status, r.code])).toEqual([
      [401, "no_matching_signature"],
      [401, "no_matching_signature"],
      [400, "missing_header"],
    ]);
    expect(receiver.handled.some((e) => e.id === "msg_forged1" || e.id === "msg_signed1")).toBe(false);

    // The same bytes signed with the subscription's secret are accepted: the rejections were about the signature.
    const genuine = await fetch(receiver.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...signed },
      body,
    });
    expect(genuine.status).toBe(202);
    await expect
      .poll(() => receiver.handled.filter((e) => e.id === "msg_signed1").map((e) => e.subject))
      .toEqual(["tkt_FORGED1"]);
  });

  it("retries a stored event whose handling failed, then dead-letters it; a redelivery stores nothing new", async () => {
    // Signed correctly but missing the order the handler reads: the handler throws after the 202.
    const body = JSON.stringify({ type: "cart.completed", timestamp: new Date().toISOString(), data: {} });
    const headers = await signWebhook({
      id: "msg_broken1",
      body,
      secret: receiver.subscription?.secret ?? "",
    });
    const send = () =>
      fetch(receiver.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body,
      });
    expect((await send()).status).toBe(202);
    // The inbox tries it again by itself (8 attempts), then keeps it as a dead letter with the last error.
    await expect
      .poll(async () => (await receiver.inbox.get("msg_broken1"))?.status, { timeout: 10_000 })
      .toBe("dead");
    expect(receiver.failed.map((f) => [f.id, f.type, f.attempt, f.error instanceof TypeError])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((attempt) => ["msg_broken1", "cart.completed", attempt, true]),
    );
    expect((await receiver.inbox.get("msg_broken1"))?.lastError).toMatch(/^TypeError: /);
    expect(await receiver.inbox.stats()).toMatchObject({ dead: 1 });
    // Sent again (same webhook-id): acknowledged as stored, not run again; a fixed handler would use replay(id).
    expect((await send()).status).toBe(200);
    expect(receiver.duplicates).toContain("msg_broken1");
  });

  it("answers 404 off the endpoint path, 405 to other methods and 413 to oversized bodies", async () => {
    const base = new URL(receiver.url);
    expect((await fetch(new URL("/other", base))).status).toBe(404);
    const get = await fetch(receiver.url);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    const big = await fetch(receiver.url, { method: "POST", body: "x".repeat(1_048_577) });
    expect(big.status).toBe(413);
  });
});
