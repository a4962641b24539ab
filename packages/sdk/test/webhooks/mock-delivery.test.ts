import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type MockServer, startMockServer } from "@entrada/mock-server/node";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookDeduper, verifyWebhook } from "../../src/webhooks/index.ts";

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** The receiving endpoint: records raw bodies, answers 204. */
function startReceiver(): Promise<{
  server: Server;
  url: string;
  deliveries: Delivery[];
  next(): Promise<Delivery>;
}> {
  const deliveries: Delivery[] = [];
  const waiters: ((d: Delivery) => void)[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const delivery = { headers: req.headers, body: Buffer.concat(chunks) };
    deliveries.push(delivery);
    res.writeHead(204).end();
    waiters.shift()?.(delivery);
  });
  let seen = 0;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        server,
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        deliveries,
        next: () => {
          const ready = deliveries[seen];
          seen++;
          if (ready) return Promise.resolve(ready);
          return new Promise<Delivery>((r) => waiters.push(r));
        },
      }),
    ),
  );
}

describe("deliveries from the mock server verify with verifyWebhook", () => {
  let mock: MockServer;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let token: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${mock.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": "application/json",
        "idempotency-key": crypto.randomUUID(),
      },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json as Record<string, unknown>;
  };

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    receiver = await startReceiver();
    const res = await fetch(`${mock.url}/connect/token`, {
      method: "POST",
      headers: {
        authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: "grant_type=client_credentials&scope=Shop",
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });
  afterAll(async () => {
    await mock?.close();
    receiver?.server.close();
  });

  it("verifies a test event, rejects it under another secret, survives a rotation and dedupes a replay", async () => {
    const subscription = await api("POST", "/webhooks/v1/subscriptions", {
      url: receiver.url,
      eventTypes: ["*"],
    });
    const secret = subscription.secret as string;
    expect(secret).toMatch(/^whsec_/);

    await api("POST", `/webhooks/v1/subscriptions/${subscription.id}/test`, { eventType: "ticket.issued" });
    const first = await receiver.next();
    const event = await verifyWebhook(first.body, first.headers, secret);
    expect(event.type).toBe("ticket.issued");
    expect(
      new Webhook(secret).verify(first.body.toString(), first.headers as Record<string, string>),
    ).toEqual(event);
    const other = `whsec_${btoa("another secret of 24 b!!")}`;
    await expect(verifyWebhook(first.body, first.headers, other)).rejects.toMatchObject({
      code: "no_matching_signature",
    });

    const rotated = await api("POST", `/webhooks/v1/subscriptions/${subscription.id}/rotate-secret`, {});
    const newSecret = rotated.secret as string;
    expect(newSecret).not.toBe(secret);
    await api("POST", `/webhooks/v1/subscriptions/${subscription.id}/test`, {
      eventType: "payment.succeeded",
    });
    const second = await receiver.next();
    expect(String(second.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect((await verifyWebhook(second.body, second.headers, newSecret)).type).toBe("payment.succeeded");
    expect((await verifyWebhook(second.body, second.headers, secret)).type).toBe("payment.succeeded");

    const dedupe = createWebhookDeduper();
    expect(await dedupe.claim(first.headers)).toBe(true);
    const deliveries = await api("GET", `/webhooks/v1/subscriptions/${subscription.id}/deliveries`);
    const items = deliveries.items as { id: string; messageId: string }[];
    const original = items.find((d) => d.messageId === first.headers["webhook-id"]);
    expect(original).toBeDefined();
    await api("POST", `/webhooks/v1/deliveries/${original?.id}/replay`);
    const replay = await receiver.next();
    expect(replay.headers["webhook-id"]).toBe(first.headers["webhook-id"]);
    expect(await verifyWebhook(replay.body, replay.headers, newSecret)).toEqual(event);
    expect(await dedupe.claim(replay.headers)).toBe(false);
  }, 20_000);
});
