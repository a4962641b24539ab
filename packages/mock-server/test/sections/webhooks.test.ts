import { createHmac } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import webhooks, {
  deliverDue,
  enqueueWebhookEvent,
  localizedValue,
  RETRY_SCHEDULE_SECONDS,
  retryDelayMs,
  startDeliveryWorker,
} from "../../src/sections/webhooks/index.ts";
import { webhooksSlice } from "../../src/sections/webhooks/state.ts";
import type { FetchLike } from "../../src/sections/webhooks/worker.ts";
import { harness } from "./context.ts";

type Delivery = {
  id: string;
  eventType: string;
  messageId: string;
  status: string;
  test: boolean;
  replayOf: string | null;
  nextAttemptAt: string | null;
  attempts: {
    number: number;
    statusCode: number | null;
    error: string | null;
    responseExcerpt: string | null;
  }[];
  payload: { type: string; timestamp: string; data: Record<string, unknown> };
};

interface Received {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A fake receiver: answers with the scripted statuses in order (then 200), records every request. */
function receiver(script: (number | Error | { status: number; retryAfter?: string })[] = []) {
  const received: Received[] = [];
  const fetch: FetchLike = async (url, init) => {
    received.push({ url, headers: init.headers, body: init.body });
    const next = script.shift() ?? 200;
    if (next instanceof Error) throw next;
    const status = typeof next === "number" ? next : next.status;
    const retryAfter = typeof next === "number" ? null : (next.retryAfter ?? null);
    return {
      status,
      headers: { get: (n: string) => (n === "retry-after" ? retryAfter : null) },
      text: async () => `ok ${status}`,
    };
  };
  return { received, fetch };
}

/** Independent check of a Standard Webhooks signature with node:crypto. */
function signatureValid(headers: Record<string, string>, body: string, secret: string): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.${body}`)
    .digest("base64");
  return (headers["webhook-signature"] ?? "").split(" ").includes(`v1,${expected}`);
}

async function setup(eventTypes: string[] = ["*"], culture = "de-CH") {
  const h = harness([webhooks]);
  const created = await h.call(webhooks, "createWebhookSubscription", {
    body: { url: "https://crm.example.com/hooks", eventTypes, description: "CRM", culture },
  });
  const sub = created.body;
  return { h, sub, created };
}

describe("webhooks: subscriptions", () => {
  it("creates with a whsec_ secret shown once, lists and reads without it, scoped to the client", async () => {
    const { h, sub, created } = await setup();
    expect(created.status).toBe(201);
    expect(sub.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(created.headers?.location).toBe(`http://127.0.0.1:4010/webhooks/v1/subscriptions/${sub.id}`);
    const got = (await h.call(webhooks, "getWebhookSubscription", { params: { subscriptionId: sub.id } }))
      .body;
    expect(got).not.toHaveProperty("secret");
    expect(got).toMatchObject({
      enabled: true,
      disabledReason: null,
      eventTypes: ["*"],
      culture: "de-CH",
      previousSecretExpiresAt: null,
    });
    const other = { kind: "client" as const, clientId: "other", scopes: ["Shop"] };
    expect(
      (
        await h.problem(webhooks, "getWebhookSubscription", {
          params: { subscriptionId: sub.id },
          auth: other,
        })
      ).slug,
    ).toBe("not-found");
    expect((await h.call(webhooks, "listWebhookSubscriptions", { auth: other })).body.items).toEqual([]);
    expect((await h.call(webhooks, "listWebhookSubscriptions", {})).body.items.map((s) => s.id)).toEqual([
      sub.id,
    ]);
  });

  it("rejects plain http except loopback", async () => {
    const h = harness([webhooks]);
    const p = await h.problem(webhooks, "createWebhookSubscription", {
      body: { url: "http://crm.example.com/x", eventTypes: ["*"] },
    });
    expect(p.slug).toBe("unprocessable");
    expect(p.extensions?.errors).toEqual([expect.objectContaining({ pointer: "/body/url" })]);
    const ok = await h.call(webhooks, "createWebhookSubscription", {
      body: { url: "http://127.0.0.1:9999/hook", eventTypes: ["*"] },
    });
    expect(ok.status).toBe(201);
  });
});

describe("webhooks: queue and delivery", () => {
  it("queues one delivery per matching enabled subscription, localized per subscription culture", async () => {
    const h = harness([webhooks]);
    const mk = async (eventTypes: string[], culture: string, enabled = true) =>
      (
        await h.call(webhooks, "createWebhookSubscription", {
          body: { url: "https://a.example/h", eventTypes, culture, enabled },
        })
      ).body;
    const all = await mk(["*"], "fr-CH");
    const denials = await mk(["entrance.denied"], "en-GB");
    await mk(["ticket.issued"], "de-CH");
    await mk(["*"], "de-CH", false);
    const texts = { "de-CH": "Unbekannt", "fr-CH": "Inconnu", "it-CH": "Sconosciuto", "en-GB": "Unknown" };
    const { messageId, deliveryIds } = enqueueWebhookEvent(
      h.world,
      { type: "entrance.denied", data: { reason: "unknown_quicode", reasonText: localizedValue(texts) } },
      h.clock,
    );
    expect(messageId).toMatch(/^msg_/);
    expect(deliveryIds).toHaveLength(2);
    const bodies = await Promise.all(
      [all, denials].map(
        async (s) =>
          (await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: s.id } })).body
            .items[0],
      ),
    );
    expect(bodies.map((d) => d?.payload.data)).toEqual([
      expect.objectContaining({ reasonText: "Inconnu" }),
      expect.objectContaining({ reasonText: "Unknown" }),
    ]);
    expect(bodies.every((d) => d?.messageId === messageId && d?.status === "pending")).toBe(true);
  });

  it("signs deliveries (Standard Webhooks) and records a successful attempt", async () => {
    const { h, sub } = await setup();
    enqueueWebhookEvent(h.world, { type: "ticket.issued", data: { ticket: { id: "tkt_1" } } }, h.clock);
    const r = receiver();
    // The header is real time (what receivers compare with their clock), not the mock clock.
    const wallClock = () => h.clock.now() + 86_400_000 + 1234;
    expect(await deliverDue(h.world, { fetch: r.fetch, clock: h.clock, wallClock })).toBe(1);
    const req = r.received[0] as Received;
    expect(req.url).toBe("https://crm.example.com/hooks");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["webhook-id"]).toMatch(/^msg_/);
    expect(req.headers["webhook-timestamp"]).toBe(String(Math.floor(wallClock() / 1000)));
    expect(signatureValid(req.headers, req.body, sub.secret)).toBe(true);
    expect(JSON.parse(req.body)).toEqual({
      type: "ticket.issued",
      timestamp: new Date(h.clock.now()).toISOString(),
      data: { ticket: { id: "tkt_1" } },
    });
    const [d] = (await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } })).body
      .items;
    expect(d).toMatchObject({
      status: "succeeded",
      nextAttemptAt: null,
      attempts: [{ number: 1, statusCode: 200, error: null, responseExcerpt: "ok 200" }],
    });
    // Nothing is due any more.
    expect(await deliverDue(h.world, { fetch: r.fetch, clock: h.clock })).toBe(0);
  });

  it("retries with exponential backoff and jitter on the mock clock, then fails after ten attempts", async () => {
    const { h, sub } = await setup();
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    const r = receiver(Array.from({ length: 20 }, () => 500));
    const random = () => 1; // the upper jitter bound
    for (let attempt = 1; attempt <= 10; attempt++) {
      expect(await deliverDue(h.world, { fetch: r.fetch, clock: h.clock, random })).toBe(1);
      const d = (
        await h.call(webhooks, "getWebhookDelivery", {
          params: {
            deliveryId: Object.keys(webhooksSlice(h.world).deliveries)[0] ?? "",
          },
        })
      ).body;
      expect(d.attempts).toHaveLength(attempt);
      if (attempt < 10) {
        const delay = Date.parse(d.nextAttemptAt as string) - h.clock.now();
        expect(delay).toBe(Math.round((RETRY_SCHEDULE_SECONDS[attempt - 1] as number) * 1100));
        // Not due a millisecond early.
        h.clock.advance(delay - 1);
        expect(await deliverDue(h.world, { fetch: r.fetch, clock: h.clock, random })).toBe(0);
        h.clock.advance(1);
      } else {
        expect(d).toMatchObject({ status: "failed", nextAttemptAt: null });
      }
    }
    expect(r.received.length).toBe(10);
    // All retries share the message id; each attempt is signed afresh.
    expect(new Set(r.received.map((x) => x.headers["webhook-id"])).size).toBe(1);
    expect(r.received.every((x) => signatureValid(x.headers, x.body, sub.secret))).toBe(true);
  });

  it("honours a longer Retry-After and classifies transport errors", async () => {
    expect(retryDelayMs(1, () => 0.5, 120)).toBe(120_000);
    expect(retryDelayMs(1, () => 0)).toBe(4500);
    expect(retryDelayMs(1, () => 1)).toBe(5500);
    expect(retryDelayMs(10)).toBeNull();
    const { h } = await setup();
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    const refused = Object.assign(new TypeError("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    const r = receiver([refused, { status: 429, retryAfter: "600" }]);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    h.clock.advance(10_000);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    const d = Object.values(webhooksSlice(h.world).deliveries)[0];
    expect(d?.attempts.map((a) => [a.statusCode, a.error])).toEqual([
      [null, "connection_refused"],
      [429, null],
    ]);
    expect((d?.nextAttemptAt ?? 0) - h.clock.now()).toBe(600_000);
  });

  it("410 Gone disables the subscription and fails its pending deliveries; re-enabling resumes new events", async () => {
    const { h, sub } = await setup();
    enqueueWebhookEvent(h.world, { type: "cart.created", data: { n: 1 } }, h.clock);
    const r = receiver([410]);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    enqueueWebhookEvent(h.world, { type: "cart.created", data: { n: 2 } }, h.clock);
    const s = (await h.call(webhooks, "getWebhookSubscription", { params: { subscriptionId: sub.id } })).body;
    expect(s).toMatchObject({ enabled: false, disabledReason: "gone" });
    const log = (await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } })).body
      .items;
    expect(log.map((d) => d.status)).toEqual(["failed"]);
    const replay = await h.problem(webhooks, "replayWebhookDelivery", {
      params: { deliveryId: (log[0] as Delivery).id },
    });
    expect(replay.slug).toBe("conflict");

    const enabled = (
      await h.call(webhooks, "updateWebhookSubscription", {
        params: { subscriptionId: sub.id },
        body: { enabled: true },
      })
    ).body;
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    enqueueWebhookEvent(h.world, { type: "cart.created", data: { n: 3 } }, h.clock);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    expect(r.received.map((x) => JSON.parse(x.body).data.n)).toEqual([1, 3]);
  });

  it("replays a delivery with the same webhook-id and payload, signed anew", async () => {
    const { h, sub } = await setup();
    enqueueWebhookEvent(h.world, { type: "payment.succeeded", data: { payment: { id: "pay_1" } } }, h.clock);
    const r = receiver();
    let wall = 1_900_000_000_000;
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock, wallClock: () => wall });
    const [first] = (await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } }))
      .body.items;
    h.clock.advance(3_600_000);
    const replayed = await h.call(webhooks, "replayWebhookDelivery", {
      params: { deliveryId: (first as Delivery).id },
    });
    expect(replayed.status).toBe(202);
    expect(replayed.body).toMatchObject({
      replayOf: first?.id,
      messageId: first?.messageId,
      status: "pending",
      attempts: [],
    });
    wall += 42_000;
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock, wallClock: () => wall });
    expect(r.received).toHaveLength(2);
    expect(r.received[1]?.body).toBe(r.received[0]?.body);
    expect(r.received[1]?.headers["webhook-id"]).toBe(r.received[0]?.headers["webhook-id"]);
    expect(
      Number(r.received[1]?.headers["webhook-timestamp"]) -
        Number(r.received[0]?.headers["webhook-timestamp"]),
    ).toBe(42);
  });

  it("rotates secrets with an overlap: two signatures, then only the new one; at most two secrets", async () => {
    const { h, sub } = await setup();
    const rotated = (
      await h.call(webhooks, "rotateWebhookSecret", {
        params: { subscriptionId: sub.id },
        body: { overlapSeconds: 3600 },
      })
    ).body;
    expect(rotated.secret).not.toBe(sub.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt ?? "") - h.clock.now()).toBe(3_600_000);
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    const r = receiver();
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    const during = r.received[0] as Received;
    expect(during.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(signatureValid(during.headers, during.body, sub.secret)).toBe(true);
    expect(signatureValid(during.headers, during.body, rotated.secret)).toBe(true);

    h.clock.advance(3_600_001);
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    const after = r.received[1] as Received;
    expect(after.headers["webhook-signature"]?.split(" ")).toHaveLength(1);
    expect(signatureValid(after.headers, after.body, rotated.secret)).toBe(true);
    expect(signatureValid(after.headers, after.body, sub.secret)).toBe(false);

    // Rotating twice during an overlap keeps only the two newest secrets.
    const a = (
      await h.call(webhooks, "rotateWebhookSecret", { params: { subscriptionId: sub.id }, body: {} })
    ).body;
    const b = (
      await h.call(webhooks, "rotateWebhookSecret", { params: { subscriptionId: sub.id }, body: {} })
    ).body;
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    const third = r.received[2] as Received;
    expect(third.headers["webhook-signature"]?.split(" ")).toHaveLength(2);
    expect(signatureValid(third.headers, third.body, b.secret)).toBe(true);
    expect(signatureValid(third.headers, third.body, a.secret)).toBe(true);
    expect(signatureValid(third.headers, third.body, rotated.secret)).toBe(false);
    const revoked = (
      await h.call(webhooks, "rotateWebhookSecret", {
        params: { subscriptionId: sub.id },
        body: { overlapSeconds: 0 },
      })
    ).body;
    expect(revoked.previousSecretExpiresAt).toBeNull();
  });

  it("sends the contract's example payload as a test event, even while disabled and regardless of the filter", async () => {
    const { h, sub } = await setup(["cart.created"]);
    await h.call(webhooks, "updateWebhookSubscription", {
      params: { subscriptionId: sub.id },
      body: { enabled: false },
    });
    const res = await h.call(webhooks, "sendWebhookTestEvent", {
      params: { subscriptionId: sub.id },
      body: { eventType: "entrance.denied" },
    });
    expect(res.status).toBe(202);
    const d = res.body;
    expect(d).toMatchObject({ test: true, eventType: "entrance.denied", status: "pending" });
    expect(d.payload.data).toHaveProperty("reason");
    const r = receiver();
    await deliverDue(h.world, { fetch: r.fetch, clock: h.clock });
    expect(r.received).toHaveLength(1);
    const dflt = (
      await h.call(webhooks, "sendWebhookTestEvent", { params: { subscriptionId: sub.id }, body: {} })
    ).body;
    expect(dflt.eventType).toBe("ticket.issued");
  });

  it("deleting a subscription fails its pending deliveries; the log stays readable by delivery id", async () => {
    const { h, sub } = await setup();
    enqueueWebhookEvent(h.world, { type: "cart.created", data: {} }, h.clock);
    const [pending] = (
      await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } })
    ).body.items;
    expect(
      (await h.call(webhooks, "deleteWebhookSubscription", { params: { subscriptionId: sub.id } })).status,
    ).toBe(204);
    expect(
      (await h.call(webhooks, "getWebhookDelivery", { params: { deliveryId: (pending as Delivery).id } }))
        .body,
    ).toMatchObject({ status: "failed" });
    expect(
      (await h.problem(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } })).slug,
    ).toBe("not-found");
    expect(
      (
        await h.problem(webhooks, "replayWebhookDelivery", {
          params: { deliveryId: (pending as Delivery).id },
        })
      ).slug,
    ).toBe("conflict");
  });
});

describe("webhooks: delivery worker over real HTTP", () => {
  let server: Server | null = null;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  it("POSTs signed deliveries to a local receiver with the platform fetch", async () => {
    const got: { headers: IncomingMessage["headers"]; body: string }[] = [];
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        got.push({ headers: req.headers, body });
        res.writeHead(got.length === 1 ? 503 : 204).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const h = harness([webhooks]);
    const sub = (
      await h.call(webhooks, "createWebhookSubscription", {
        body: { url: `http://127.0.0.1:${port}/hook`, eventTypes: ["*"] },
      })
    ).body;
    enqueueWebhookEvent(h.world, { type: "cart.completed", data: { order: { id: "ord_1" } } }, h.clock);
    const worker = startDeliveryWorker({
      targets: () => [{ world: h.world, clock: h.clock }],
      fetch: globalThis.fetch as unknown as FetchLike,
      intervalMs: 10_000,
    });
    try {
      expect(await worker.tick()).toBe(1);
      h.clock.advance(6_000);
      expect(await worker.tick()).toBe(1);
    } finally {
      await worker.stop();
    }
    expect(got).toHaveLength(2);
    const headers = Object.fromEntries(Object.entries(got[1]?.headers ?? {}).map(([k, v]) => [k, String(v)]));
    expect(signatureValid(headers, got[1]?.body ?? "", sub.secret)).toBe(true);
    const [d] = (await h.call(webhooks, "listWebhookDeliveries", { params: { subscriptionId: sub.id } })).body
      .items;
    expect(d?.attempts.map((a) => a.statusCode)).toEqual([503, 204]);
    expect(d?.status).toBe("succeeded");
  });
});
