/**
 * Chaos: the mock sells 300 orders while activation replicas (real processes behind a round-robin balancer) are
 * SIGKILLed and restarted five times, the GA4 and Meta collectors fail 15 % of requests with 503 and leave 2 %
 * unanswered, and (PostgreSQL mode) the database itself is restarted once. The mock's clock is advanced so its
 * redeliveries come due. At the end every order reached GA4 (`transaction_id`) and Meta (`event_id`), every
 * delivery the mock saw acknowledged is in the inbox and done, and the duplicates per destination are reported.
 * Deterministic seeds; waits are polls with deadlines.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TEST_CARDS } from "@entrada/mock-server";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { createClient, type EntradaClient, paginate } from "@entrada/sdk";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestPostgres, type TestPostgres } from "../../../../scripts/test-postgres.mjs";
import { balancer, collector, replica, seeded } from "./harness.ts";

const ORDERS = 300;
const KILLS = 5;

interface Offer {
  articleId: string;
  slotId: string;
}

/** Bookable (article, slot) pairs with seats left, to spread the orders over. */
async function offers(client: EntradaClient): Promise<Offer[]> {
  const found: Offer[] = [];
  for await (const summary of paginate(client.shop.listEvents, { params: { query: { limit: 50 } } })) {
    if (!summary.available) continue;
    const { data: event } = await client.shop.getEvent.orThrow({ params: { path: { eventId: summary.id } } });
    const article = event.pricingAssortments.flatMap((a) => a.articles)[0];
    if (!article) continue;
    for (const slot of event.slots)
      if (slot.available > 0) found.push({ articleId: article.id, slotId: slot.id });
  }
  return found;
}

/** One purchase through the shop API; resolves with the order id. */
async function sell(client: EntradaClient, offer: Offer, n: number): Promise<string | undefined> {
  const { data: cart } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
  const path = { path: { id: cart.id } };
  const added = await client.shop.addCartItem({ params: path, body: { ...offer, quantity: 1 } });
  if (added.error) return undefined; // sold out meanwhile: the caller takes the next offer
  await client.shop.setCartCustomer.orThrow({
    params: path,
    body: { firstName: "Chaos", lastName: `Buyer ${n}`, email: `buyer${n}@example.com` },
  });
  await client.shop.setCartPaymentProvider.orThrow({ params: path, body: { paymentProviderId: "card" } });
  const { data } = await client.shop.checkoutCart.orThrow({
    params: path,
    body: { paymentMethod: { cardNumber: TEST_CARDS.succeeds } },
  });
  return data.status === "completed" ? data.order.id : undefined;
}

export type Mode = { name: "PostgreSQL"; replicas: 3 } | { name: "SQLite"; replicas: 1 };

/** Registers the scenario (one file per mode, so vitest runs the two side by side). */
export function chaos(mode: Mode, seed: number): void {
  describe(`activation under chaos, ${mode.name}, ${mode.replicas} replica(s)`, () => {
    let mock: MockServer;
    let database: TestPostgres | undefined;
    let dir: string;
    const cleanup: (() => unknown)[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), "activation-chaos-"));
      mock = await startMockServer({ port: 0 });
      if (mode.name === "PostgreSQL") database = await startTestPostgres();
    }, 120_000);
    afterAll(async () => {
      for (const step of cleanup.reverse()) await step();
      await mock?.close();
      await database?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it(`loses no acknowledged delivery: ${ORDERS} orders reach GA4 and Meta`, async () => {
      const started = Date.now();
      const random = seeded(seed);
      const ga4 = await collector(seeded(seed + 1), (b) => {
        const events = b.events as { params: { transaction_id?: string } }[];
        return events[0]?.params.transaction_id;
      });
      const meta = await collector(seeded(seed + 2), (b) => (b.data as { event_id?: string }[])[0]?.event_id);
      const lb = await balancer(mode.replicas);
      cleanup.push(
        () => ga4.close(),
        () => meta.close(),
        () => lb.close(),
      );

      const client = createClient({
        baseUrl: mock.url,
        clientId: "entrada-demo",
        clientSecret: "demo-secret",
        scope: ["Shop"],
      });
      const { data: subscription } = await client.webhooks.createWebhookSubscription.orThrow({
        body: { url: `${lb.url}/webhooks/entrada`, eventTypes: ["cart.completed"], culture: "en-GB" },
      });
      const databaseUrl = database?.url ?? join(dir, "activation.sqlite");
      const replicas = Array.from({ length: mode.replicas }, (_, i) =>
        replica({
          ENTRADA_WEBHOOK_SECRET: subscription.secret,
          ACTIVATION_DATABASE_URL: databaseUrl,
          ACTIVATION_GA4_URL: `${ga4.url}/mp/collect?measurement_id=G-CHAOS&api_secret=chaos`,
          ACTIVATION_META_URL: `${meta.url}/v21.0/1234/events?access_token=chaos`,
          ACTIVATION_STORE: join(dir, `replica-${i}.ndjson`),
          ACTIVATION_FORWARD_TIMEOUT_MS: "500",
        }),
      );
      cleanup.push(() => Promise.all(replicas.map((r) => r.stop())));
      await Promise.all(replicas.map(async (r, i) => (lb.targets[i] = await r.start())));

      // Five kills at seeded points of the sale, each of a seeded replica, restarted at once.
      const killAt = new Map<number, number>();
      while (killAt.size < KILLS) killAt.set(20 + Math.floor(random() * (ORDERS - 40)), 0);
      for (const at of killAt.keys()) killAt.set(at, Math.floor(random() * mode.replicas));
      const restarts: Promise<unknown>[] = [];
      let killed = 0;
      // One replica's kills run in turn: a kill waits for the previous restart to be listening.
      const lifecycles = replicas.map(() => Promise.resolve());
      const kill = (slot: number) => {
        lifecycles[slot] = (lifecycles[slot] as Promise<void>).then(async () => {
          lb.targets[slot] = undefined;
          await replicas[slot]?.kill();
          lb.targets[slot] = await replicas[slot]?.start();
          killed++;
        });
        return lifecycles[slot];
      };

      const stock = await offers(client);
      expect(stock.length).toBeGreaterThan(0);
      const orders: string[] = [];
      let offer = 0;
      let databaseRestarted = false;
      let refused = 0;
      while (orders.length < ORDERS) {
        if (refused > stock.length) throw new Error(`the mock sold out after ${orders.length} orders`);
        const id = await sell(client, stock[offer++ % stock.length] as Offer, orders.length);
        if (!id) {
          refused++;
          continue;
        }
        refused = 0;
        orders.push(id);
        const victim = killAt.get(orders.length);
        if (victim !== undefined) restarts.push(kill(victim));
        // Midway, PostgreSQL itself goes down and comes back: stores answer 503, workers reconnect.
        if (database?.restart && !databaseRestarted && orders.length === ORDERS / 2) {
          databaseRestarted = true;
          restarts.push(database.restart());
        }
      }
      await Promise.all(restarts);
      expect(killed).toBe(KILLS);
      const sold = Date.now();

      // Redeliveries wait on the mock's schedule (5 s, 5 min, 30 min, …): move its clock while any is pending.
      const pendingDeliveries = async () => {
        let pending = 0;
        for await (const d of paginate(client.webhooks.listWebhookDeliveries, {
          params: { path: { subscriptionId: subscription.id }, query: { limit: 100 } },
        }))
          if (d.status === "pending") pending++;
        return pending;
      };
      const missing = () => orders.filter((o) => !ga4.accepted.has(o) || !meta.accepted.has(o));
      await expect
        .poll(
          async () => {
            if ((await pendingDeliveries()) > 0)
              await fetch(`${mock.url}/__mock/clock`, {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: JSON.stringify({ advanceSeconds: 1800 }),
              });
            return missing().length;
          },
          { timeout: 150_000, interval: 500 },
        )
        .toBe(0);

      // Every delivery the mock saw acknowledged (a 2xx) is in the inbox, processed.
      const acknowledged: string[] = [];
      const orderOf = new Map<string, string>();
      for await (const d of paginate(client.webhooks.listWebhookDeliveries, {
        params: { path: { subscriptionId: subscription.id }, query: { limit: 100 } },
      })) {
        if (d.attempts.some((a) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300))
          acknowledged.push(d.messageId);
        orderOf.set(d.messageId, (d.payload.data as { order: { id: string } }).order.id);
      }
      const statuses = await inboxStatuses(databaseUrl, database !== undefined, acknowledged);
      const lost = acknowledged.filter((id) => statuses.get(id) !== "done");
      expect(lost).toEqual([]);
      expect(new Set(acknowledged.map((id) => orderOf.get(id)))).toEqual(new Set(orders));
      expect(missing()).toEqual([]);

      const duplicates = (c: typeof ga4) => [...c.accepted.values()].reduce((n, times) => n + times - 1, 0);
      const report = {
        mode: mode.name,
        replicas: mode.replicas,
        orders: orders.length,
        acknowledged: new Set(acknowledged).size,
        forwarded: { ga4: ga4.accepted.size, meta: meta.accepted.size },
        duplicates: { ga4: duplicates(ga4), meta: duplicates(meta) },
        collectorFaults: { ga4: ga4.faults, meta: meta.faults },
        kills: killed,
        databaseRestarts: databaseRestarted ? 1 : 0,
        lost: lost.length,
        seconds: { selling: (sold - started) / 1000, total: (Date.now() - started) / 1000 },
      };
      console.log(`chaos report ${JSON.stringify(report)}`);
    }, 240_000);
  });
}

/** The inbox rows of `ids`, read straight from the database the replicas share. */
async function inboxStatuses(url: string, postgres: boolean, ids: string[]): Promise<Map<string, string>> {
  const statuses = new Map<string, string>();
  if (postgres) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT id, status FROM entrada_webhook_inbox WHERE id = ANY($1)", [
        ids,
      ]);
      for (const row of rows) statuses.set(row.id, row.status);
    } finally {
      await client.end();
    }
    return statuses;
  }
  const { DatabaseSync } = await import("node:sqlite");
  const db = new DatabaseSync(url, { readOnly: true });
  for (const row of db.prepare("SELECT id, status FROM entrada_webhook_inbox").all())
    statuses.set(String(row.id), String(row.status));
  db.close();
  return statuses;
}
