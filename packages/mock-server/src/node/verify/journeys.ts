/**
 * The documented journeys, through the SDK (every exchange is also checked against the contract by the run):
 *
 *   purchase      token → discovery → cart → items → buyer → provider → checkout (test card) → purchase webhook
 *   replay        a write repeated with its Idempotency-Key is replayed (same answer, `Idempotent-Replayed: true`)
 *   languages     each culture asked for is the one answered (`Content-Language`)
 *   entrance      a ticket of the purchase scanned at an entry gate of its event: known there (admitted, or
 *                 denied for a reason of the day, never `unknown_quicode`)
 *
 * Under `--read-only` only `languages` runs (it reads). A step that does not do what the contract says is a
 * difference with rule `journey` naming the operation.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Run, VerifyContext } from "./suite.ts";

const CULTURES = ["de-CH", "fr-CH", "it-CH", "en-GB"] as const;
/** The contract's test card that pays (see the `checkoutCart` description). */
const TEST_CARD = "4242424242424242";

function step(ctx: VerifyContext, operationId: string, message: string): void {
  ctx.fail({ operationId, rule: "journey", pointer: "/status", message });
}

/** A receiver for the purchase webhook on loopback (used when `--webhook-url` is not given). */
async function receiver(): Promise<{ url: string; types: string[]; close(): Promise<void> }> {
  const types: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      try {
        types.push(String((JSON.parse(Buffer.concat(chunks).toString("utf8")) as { type?: unknown }).type));
      } catch {
        types.push("(not JSON)");
      }
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/entrada-verify`,
    types,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Polls `check` every 200 ms until it is true or `ms` passed (a CLI waiting for a server, not a test). */
async function eventually(check: () => Promise<boolean>, ms = 8_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

async function purchase(ctx: VerifyContext): Promise<void> {
  const { client } = ctx;
  const local = ctx.webhookUrl ? null : await receiver();
  try {
    const subscription = await client.webhooks.createWebhookSubscription({
      body: {
        url: ctx.webhookUrl ?? local?.url ?? "",
        eventTypes: ["cart.completed"],
        description: "entrada-mock verify",
      },
    });
    if (!subscription.data)
      return step(ctx, "createWebhookSubscription", `Subscribing failed: ${subscription.error?.message}`);
    const subscriptionId = subscription.data.id;
    ctx.ids.set("subscriptionId", subscriptionId);

    await client.shop.getSystemConfiguration();
    const events = await client.shop.listEvents({ params: { query: { limit: 20 } } });
    if (!events.data?.items.length) return step(ctx, "listEvents", "No event to buy a ticket for.");
    let bought = false;
    for (const summary of events.data.items) {
      const event = await client.shop.getEvent({ params: { path: { eventId: summary.id } } });
      const slot = event.data?.slots.find((s) => s.available > 0);
      const article = event.data?.pricingAssortments[0]?.articles[0];
      if (!event.data || !slot || !article) continue;
      ctx.ids.set("eventId", summary.id);
      const cart = await client.shop.createCart({ body: { currency: "CHF" } });
      if (!cart.data) return step(ctx, "createCart", `Creating a cart failed: ${cart.error?.message}`);
      const path = { params: { path: { id: cart.data.id } } };
      ctx.ids.set("id", cart.data.id);
      const item = await client.shop.addCartItem({
        ...path,
        body: { articleId: article.id, slotId: slot.id, quantity: 1 },
      });
      if (!item.data) return step(ctx, "addCartItem", `Adding an item failed: ${item.error?.message}`);
      const buyer = await client.shop.setCartCustomer({
        ...path,
        body: { firstName: "Vera", lastName: "Verify", email: "verify@example.com" },
      });
      if (!buyer.data)
        return step(ctx, "setCartCustomer", `Setting the buyer failed: ${buyer.error?.message}`);
      const provider = await client.shop.setCartPaymentProvider({
        ...path,
        body: { paymentProviderId: "card" },
      });
      if (!provider.data)
        return step(
          ctx,
          "setCartPaymentProvider",
          `Choosing the card provider failed: ${provider.error?.message}`,
        );
      const checkout = await client.shop.checkoutCart({
        ...path,
        body: { paymentMethod: { cardNumber: TEST_CARD } },
      });
      const order = (
        checkout.data as
          | { order?: { id: string; tickets: Array<{ id: string; quicode: string }> } }
          | undefined
      )?.order;
      if (!order)
        return step(
          ctx,
          "checkoutCart",
          `Checkout with the test card did not complete: ${checkout.error?.message ?? checkout.response?.status}`,
        );
      ctx.ids.set("orderId", order.id);
      const ticket = order.tickets[0];
      if (ticket) {
        ctx.ids.set("ticketId", ticket.id);
        ctx.ids.set("quicode", ticket.quicode);
      }
      await client.shop.getOrder({ params: { path: { orderId: order.id } } });
      bought = true;
      break;
    }
    if (!bought) return step(ctx, "getEvent", "No event with an available slot and an article.");

    // The purchase webhook: listed in the subscription's delivery log (and received, when the receiver is ours).
    const delivered = await eventually(async () => {
      const deliveries = await client.webhooks.listWebhookDeliveries({
        params: { path: { subscriptionId } },
      });
      const found = deliveries.data?.items.find((d) => d.eventType === "cart.completed");
      if (found) ctx.ids.set("deliveryId", found.id);
      return found !== undefined && (local === null || local.types.includes("cart.completed"));
    });
    if (!delivered)
      ctx.fail({
        operationId: "listWebhookDeliveries",
        rule: "journey",
        pointer: "/body/items",
        message: "No cart.completed delivery after the purchase (the purchase webhook).",
      });
    await client.webhooks.deleteWebhookSubscription({ params: { path: { subscriptionId } } });
    ctx.ids.delete("subscriptionId");
  } finally {
    await local?.close();
  }
}

async function replay(ctx: VerifyContext): Promise<void> {
  const key = `verify-replay-${crypto.randomUUID()}`;
  const first = await ctx.client.shop.createCart({ body: { currency: "CHF" }, idempotencyKey: key });
  const second = await ctx.client.shop.createCart({ body: { currency: "CHF" }, idempotencyKey: key });
  if (!first.data || !second.data) return step(ctx, "createCart", "Creating a cart failed.");
  if (first.data.id !== second.data.id)
    ctx.fail({
      operationId: "createCart",
      rule: "journey",
      pointer: "/body/id",
      message: `A repeat with the same Idempotency-Key created another cart (${second.data.id}, first ${first.data.id}).`,
    });
}

async function languages(ctx: VerifyContext): Promise<void> {
  for (const locale of CULTURES) {
    const result = await ctx.client.shop.listVenues({ locale });
    const answered = result.response?.headers.get("content-language");
    if (result.response?.ok && answered !== locale)
      ctx.fail({
        operationId: "listVenues",
        rule: "language",
        pointer: "/header/content-language",
        message: `Asked for ${locale}, answered ${answered ?? "without Content-Language"}.`,
      });
  }
}

async function entrance(ctx: VerifyContext): Promise<void> {
  const quicode = ctx.ids.get("quicode");
  const eventId = ctx.ids.get("eventId");
  if (!quicode || !eventId) return step(ctx, "scanQuicode", "No ticket from the purchase journey to scan.");
  const gates = await ctx.client.entrance.listGates();
  const gate = gates.data?.items.find((g) => g.eventIds.includes(eventId) && g.direction !== "exit");
  if (!gate) return step(ctx, "listGates", `No entry gate lists the purchased event ${eventId}.`);
  ctx.ids.set("gateId", gate.id);
  // Admitted, or denied for a reason of the day (too early, outside a slot): never an unknown Quicode.
  const scan = await ctx.client.entrance.scanQuicode({
    params: { path: { gateId: gate.id } },
    body: { quicode },
  });
  if (!scan.data)
    return step(ctx, "scanQuicode", `Scanning the purchased ticket failed: ${scan.error?.message}`);
  if (scan.data.result !== "admitted" && scan.data.reason === "unknown_quicode")
    ctx.fail({
      operationId: "scanQuicode",
      rule: "journey",
      pointer: "/body/reason",
      message: `The gate ${gate.id} does not know the purchased ticket's Quicode (unknown_quicode).`,
    });
}

export async function runJourneys(run: Run): Promise<void> {
  const writes = run.context.readOnly ? "writes; not run under --read-only" : undefined;
  await run.case(
    "journeys",
    "purchase: token → discovery → cart → items → buyer → provider → checkout → purchase webhook",
    purchase,
    writes,
  );
  await run.case("journeys", "idempotent replay", replay, writes);
  await run.case("journeys", "languages", languages);
  await run.case("journeys", "entrance scan", entrance, writes);
}
