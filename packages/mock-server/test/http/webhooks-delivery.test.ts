import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { verifyWebhook } from "@entrada/sdk/webhooks";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type Api, bearer, bodyOf, readyCart, startApi } from "../helpers.ts";

let api: Api;
let receiver: Server;
let receiverUrl: string;
const received: Array<{ headers: Record<string, string>; body: string }> = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  api = await startApi({ webhooks: true });
});
afterAll(async () => {
  await api.close();
  await new Promise((resolve) => receiver.close(resolve));
});

it("delivers a purchase's events asynchronously, signed so the SDK's verifier accepts them", async () => {
  const token = await api.token();
  const created = await api.fetch("/webhooks/v1/subscriptions", {
    method: "POST",
    headers: bearer(token),
    json: {
      url: receiverUrl,
      eventTypes: ["ticket.issued", "payment.succeeded", "cart.completed"],
      culture: "fr-CH",
    },
  });
  expect(created.status).toBe(201);
  const { secret } = await bodyOf(created, "createWebhookSubscription");
  const { cart } = await readyCart(api, token, { quantity: 2 });
  const paid = await api.fetch(`/shop/v1/cart/${cart.id}/checkout`, {
    method: "POST",
    headers: bearer(token),
    json: { paymentMethod: { cardNumber: "4242424242424242" } },
  });
  expect(paid.status).toBe(200);
  await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
  const events = await Promise.all(received.map((r) => verifyWebhook(r.body, r.headers, secret)));
  expect(events.map((e) => e.type).sort()).toEqual([
    "cart.completed",
    "payment.succeeded",
    "ticket.issued",
    "ticket.issued",
  ]);
  const completed = events.find((e) => e.type === "cart.completed");
  if (completed?.type !== "cart.completed") throw new Error("no cart.completed delivered");
  // Item names are written in the subscription's culture.
  expect(completed.data.order.items[0]?.name).toMatch(/ – /);
  const fr = await bodyOf(
    await api.fetch(`/shop/v1/cart/${cart.id}`, { headers: bearer(token, { "accept-language": "fr-CH" }) }),
    "getCart",
  );
  expect(completed.data.order.items[0]?.name).toBe(fr.items[0]?.name);
  await expect(
    verifyWebhook(
      received[0]?.body ?? "",
      received[0]?.headers ?? {},
      "whsec_d3Jvbmctc2VjcmV0LXdyb25nLXNlY3JldA==",
    ),
  ).rejects.toThrow();
});

it("signs with real wall-clock time after the mock clock moved a day ahead; the payload keeps mock time", async () => {
  const advanced = await api.fetch("/__mock/clock", { method: "POST", json: { advanceSeconds: 86_400 } });
  expect(advanced.status).toBe(200);
  const token = await api.token();
  const created = await api.fetch("/webhooks/v1/subscriptions", {
    method: "POST",
    headers: bearer(token),
    json: { url: receiverUrl, eventTypes: ["ticket.issued"] },
  });
  expect(created.status).toBe(201);
  const { id, secret } = await bodyOf(created, "createWebhookSubscription");
  received.length = 0;
  const sentAt = Date.now();
  const test = await api.fetch(`/webhooks/v1/subscriptions/${id}/test`, {
    method: "POST",
    headers: bearer(token),
    json: { eventType: "ticket.issued" },
  });
  expect(test.status).toBe(202);
  await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const delivery = received[0];
  expect(delivery).toBeDefined();
  // Default tolerance (±5 min) against the receiver's real clock: accepted, not timestamp_too_new.
  const event = await verifyWebhook(delivery?.body ?? "", delivery?.headers ?? {}, secret);
  expect(event.type).toBe("ticket.issued");
  const header = Number(delivery?.headers["webhook-timestamp"]);
  expect(Math.abs(header * 1000 - sentAt)).toBeLessThan(60_000);
  // The payload's timestamp is the event's time in the mock world: a day ahead.
  expect(Date.parse(event.timestamp) - sentAt).toBeGreaterThan(86_400_000 - 60_000);
  const reset = await api.fetch("/__mock/clock", { method: "POST", json: { reset: true } });
  expect(reset.status).toBe(200);
});
