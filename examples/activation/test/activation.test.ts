import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_CARDS } from "@entrada/mock-server";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { createClient, type EntradaClient, paginate } from "@entrada/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main, type RunningActivation } from "../src/main.ts";
import type { StoredRecord } from "../src/store.ts";

const credentials = { clientId: "entrada-demo", clientSecret: "demo-secret" };
const sha = (text: string) => createHash("sha256").update(text).digest("hex");
const VISITOR = { ga4ClientId: "1187324961.1764583200", ga4SessionId: "1764582815" };

/** A stand-in for GA4's or Meta's collection endpoint: records every body, answers from a script. */
async function endpoint(answers: number[]) {
  const bodies: Record<string, unknown>[] = [];
  const server: Server = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    bodies.push(JSON.parse(text));
    res.writeHead(answers.shift() ?? 204).end();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { bodies, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/collect` };
}

describe("activation example against the mock over HTTP", () => {
  let mock: MockServer;
  let app: RunningActivation;
  let ga4: Awaited<ReturnType<typeof endpoint>>;
  let meta: Awaited<ReturnType<typeof endpoint>>;
  let client: EntradaClient;
  let dir: string;
  const log: string[] = [];

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    client = createClient({ baseUrl: mock.url, ...credentials, scope: ["Shop", "TERP"] });
    ga4 = await endpoint([503]); // the first delivery fails once: retried
    meta = await endpoint([]);
    dir = mkdtempSync(join(tmpdir(), "activation-"));
    app = await main({
      port: 0,
      host: "127.0.0.1",
      storePath: join(dir, "activation.ndjson"),
      databaseUrl: join(dir, "activation.sqlite"),
      secrets: [],
      api: { baseUrl: mock.url, ...credentials },
      ga4: { name: "ga4", url: ga4.url },
      meta: { name: "meta", url: meta.url },
      deps: { sleep: async () => {} }, // backoff without waiting (the policy is tested in forward.test.ts)
      log: (line) => void log.push(line),
    });
  });
  afterAll(async () => {
    await app?.close();
    await mock?.close();
    for (const e of [ga4, meta]) e?.server.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("forwards a purchase to GA4 and Meta and an entrance to GA4, storing both", async () => {
    // A purchase through the shop API.
    let bought:
      | {
          order: { id: string; total: { amount: number }; subtotal: { amount: number } };
          quicode: string;
          slotStartsAt: string;
          eventId: string;
        }
      | undefined;
    for await (const summary of paginate(client.shop.listEvents, { params: { query: { limit: 5 } } })) {
      if (!summary.available) continue;
      const { data: event } = await client.shop.getEvent.orThrow({
        params: { path: { eventId: summary.id } },
      });
      const slot = event.slots.find((s) => s.available > 0);
      const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
      if (!slot || !article) continue;
      const { data: cart } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
      const path = { path: { id: cart.id } };
      await client.shop.addCartItem.orThrow({
        params: path,
        body: { articleId: article.id, slotId: slot.id, quantity: 2 },
      });
      await client.shop.setCartCustomer.orThrow({
        params: path,
        body: { firstName: "Lea", lastName: "Rossi", email: "Lea.Rossi@Example.com" },
      });
      await client.shop.setCartPaymentProvider.orThrow({ params: path, body: { paymentProviderId: "card" } });
      // The buyer's voucher code: 10 % off, what the order is charged and what both conversions report.
      await client.shop.applyCartVoucher.orThrow({ params: path, body: { code: "WINTER10" } });
      const { data } = await client.shop.checkoutCart.orThrow({
        params: path,
        // What the shop widget passes when its host set analytics.measurementId: the visitor's GA4 ids, read
        // from the cookies `_ga=GA1.1.1187324961.1764583200` and `_ga_<container>=GS2.1.s1764582815$o3…`.
        body: { paymentMethod: { cardNumber: TEST_CARDS.succeeds }, analytics: VISITOR },
      });
      if (data.status !== "completed") throw new Error("checkout did not complete");
      bought = {
        order: data.order,
        quicode: data.order.tickets[0]?.quicode ?? "",
        slotStartsAt: slot.startsAt,
        eventId: event.id,
      };
      break;
    }
    if (!bought) throw new Error("no bookable event");
    const order = bought.order;

    await expect.poll(() => meta.bodies.length, { timeout: 15_000 }).toBe(1);
    await expect.poll(() => ga4.bodies.length, { timeout: 15_000 }).toBe(2); // 503, then delivered
    expect(ga4.bodies[0]).toEqual(ga4.bodies[1]);
    const purchase = ga4.bodies[1] as {
      client_id: string;
      events: { name: string; params: Record<string, unknown> }[];
    };
    expect(purchase.events[0]).toMatchObject({
      name: "purchase",
      params: {
        transaction_id: order.id,
        currency: "CHF",
        value: order.total.amount / 100,
        coupon: "WINTER10",
      },
    });
    expect(order.total.amount).toBe(order.subtotal.amount - Math.round(order.subtotal.amount / 10));
    // The browser's visitor and session: the same client_id as the widget's own GA4 events.
    expect(purchase.client_id).toBe(VISITOR.ga4ClientId);
    expect(purchase.events[0]?.params.session_id).toBe(VISITOR.ga4SessionId);
    const items = purchase.events[0]?.params.items as { quantity: number }[] | undefined;
    expect(items?.[0]?.quantity).toBe(2);
    const metaEvent = (meta.bodies[0] as { data: Record<string, unknown>[] }).data[0] ?? {};
    expect(metaEvent).toMatchObject({ event_name: "Purchase", event_id: order.id, action_source: "other" });
    expect(metaEvent.custom_data).toMatchObject({ value: order.total.amount / 100, coupon: "WINTER10" });
    expect((metaEvent.user_data as { em: string[] }).em).toEqual([sha("lea.rossi@example.com")]);

    // The visitor arrives: the mock's clock moves to the slot, the gate scans the ticket.
    await fetch(`${mock.url}/__mock/clock`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ set: bought.slotStartsAt }),
    });
    const gates = await paginate(client.entrance.listGates).all();
    const gate = gates.find(
      (g) => g.eventIds.includes(bought.eventId) && g.status === "open" && g.direction !== "exit",
    );
    if (!gate) throw new Error("no open entry gate");
    const { data: scan } = await client.entrance.scanQuicode.orThrow({
      params: { path: { gateId: gate.id } },
      body: { quicode: bought.quicode },
    });
    expect(scan.result).toBe("admitted");
    await expect.poll(() => ga4.bodies.length, { timeout: 15_000 }).toBe(3);
    const entrance = ga4.bodies[2] as {
      events: { name: string; params: Record<string, unknown> }[];
      timestamp_micros?: number;
    };
    expect(entrance.events[0]).toMatchObject({
      name: "entrance",
      params: { ticket_source: "shop", gate_id: gate.id },
    });
    // The mock's clock is days ahead of the real one: GA4 would drop such a date, so it is sent undated.
    expect(entrance.timestamp_micros).toBeUndefined();
    expect(meta.bodies).toHaveLength(1); // no Meta event for entrances

    const lines = () => readFileSync(join(dir, "activation.ndjson"), "utf8").trim().split("\n");
    await expect.poll(() => lines().length).toBe(2);
    const stored = lines().map((l) => JSON.parse(l) as StoredRecord);
    expect(stored.map((r) => [r.record, r.kind, r.id])).toEqual([
      ["conversion", "cart.completed", order.id],
      ["entrance", "entrance.admitted", entrance.events[0]?.params.ticket_id],
    ]);
    expect(stored[0]?.forwarded).toEqual({
      ga4: { outcome: "delivered", attempts: 2 },
      meta: { outcome: "delivered", attempts: 1 },
    });
    expect(stored[0]).toMatchObject({ value: order.total.amount / 100, currency: "CHF", coupon: "WINTER10" });
  }, 60_000);

  it("dedupes a redelivery by webhook-id, and skips what is not a conversion with a logged reason", async () => {
    const { data: subs } = await client.webhooks.listWebhookSubscriptions.orThrow({});
    const sub = subs.items.find((s) => s.id === app.subscriptionId);
    if (!sub) throw new Error("subscription missing");
    const { data: deliveries } = await client.webhooks.listWebhookDeliveries.orThrow({
      params: { path: { subscriptionId: sub.id }, query: { eventType: "cart.completed" } },
    });
    const original = deliveries.items[0];
    if (!original) throw new Error("no cart.completed delivery");
    const before = ga4.bodies.length;
    const { data: replayed } = await client.webhooks.replayWebhookDelivery.orThrow({
      params: { path: { deliveryId: original.id } },
    });
    // The inbox has this webhook-id already: acknowledged as a duplicate, nothing forwarded again.
    await expect
      .poll(
        async () => {
          const { data } = await client.webhooks.getWebhookDelivery.orThrow({
            params: { path: { deliveryId: replayed.id } },
          });
          return data.attempts.at(-1)?.responseExcerpt;
        },
        { timeout: 15_000 },
      )
      .toBe(JSON.stringify({ id: original.messageId, duplicate: true }));
    expect((await app.inbox.get(original.messageId))?.status).toBe("done");
    expect(ga4.bodies.length).toBe(before);

    // A kind that is no conversion (the test event bypasses the subscription's filter).
    await client.webhooks.sendWebhookTestEvent.orThrow({
      params: { path: { subscriptionId: sub.id } },
      body: { eventType: "ticket.issued" },
    });
    await expect
      .poll(() => log.find((l) => l.includes("ticket.issued: skipped")), { timeout: 15_000 })
      .toMatch(/ticket\.issued: skipped, not a conversion or an entrance$/);
    expect(ga4.bodies.length).toBe(before);
  }, 30_000);
});
