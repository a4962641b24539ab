/**
 * Webhook delivery over real HTTP against receivers that misbehave: one that never answers holds only its own
 * deliveries (another subscription's arrive meanwhile), one that cannot be reached fails fast as a recorded
 * attempt, and stopping the server never waits for either.
 */

import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { webhooksSlice } from "../../src/sections/webhooks/state.ts";
import { type Api, bearer, bodyOf, startApi } from "../helpers.ts";

let api: Api;
let good: Server;
let hanging: Server;
const received: string[] = [];
const hangingRequests: IncomingMessage[] = [];
const hangingClosed: boolean[] = [];

const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

beforeAll(async () => {
  good = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString();
    });
    req.on("end", () => {
      received.push(body);
      res.writeHead(204).end();
    });
  });
  // Accepts the request and never answers.
  hanging = createServer((req) => {
    const index = hangingRequests.push(req) - 1;
    hangingClosed[index] = false;
    req.socket.on("close", () => {
      hangingClosed[index] = true;
    });
  });
  await Promise.all(
    [good, hanging].map((s) => new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve))),
  );
  api = await startApi({ webhooks: true });
});
afterAll(async () => {
  await api.close();
  hanging.closeAllConnections();
  await Promise.all([good, hanging].map((s) => new Promise((resolve) => s.close(resolve))));
});

it("delivers to a healthy receiver while another hangs, records an unreachable one at once, and stops without waiting", async () => {
  const token = await api.token();
  // A port nothing listens on: the connection is refused.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const unreachable = urlOf(closed);
  await new Promise((resolve) => closed.close(resolve));

  const ids: Record<string, string> = {};
  for (const [name, url] of [
    ["hanging", urlOf(hanging)],
    ["unreachable", unreachable],
    ["good", urlOf(good)],
  ] as const) {
    const created = await api.fetch("/webhooks/v1/subscriptions", {
      method: "POST",
      headers: bearer(token),
      json: { url, eventTypes: ["cart.created"] },
    });
    expect(created.status).toBe(201);
    ids[name] = (await bodyOf(created, "createWebhookSubscription")).id;
  }
  for (let i = 0; i < 3; i++) {
    expect((await api.fetch("/shop/v1/cart", { method: "POST", headers: bearer(token) })).status).toBe(201);
  }
  // The healthy receiver gets all three events although the hanging one holds its requests open.
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(3);
  expect(hangingRequests.length).toBeGreaterThan(0);
  // At most two attempts in flight to the hanging receiver: its other deliveries wait their turn.
  expect(hangingRequests.length).toBeLessThanOrEqual(2);
  // The unreachable one: each attempt recorded as connection_refused, the deliveries pending for a retry.
  const deliveries = async (id: string) =>
    (
      await bodyOf(
        await api.fetch(`/webhooks/v1/subscriptions/${id}/deliveries`, { headers: bearer(token) }),
        "listWebhookDeliveries",
      )
    ).items;
  await expect
    .poll(
      async () =>
        (await deliveries(ids.unreachable as string)).flatMap((d) => d.attempts.map((a) => a.error)),
      {
        timeout: 10_000,
      },
    )
    .toEqual(["connection_refused", "connection_refused", "connection_refused"]);
  expect((await deliveries(ids.unreachable as string)).map((d) => d.status)).toEqual([
    "pending",
    "pending",
    "pending",
  ]);
  // Stopping aborts the hanging attempts (their deliveries stay pending, nothing recorded against the receiver).
  await api.close();
  await expect.poll(() => hangingClosed.every(Boolean)).toBe(true);
  const world = webhooksSlice(api.mock.core.session().world);
  const hangingDeliveries = Object.values(world.deliveries).filter((d) => d.subscriptionId === ids.hanging);
  expect(hangingDeliveries.map((d) => [d.status, d.attempts.length])).toEqual([
    ["pending", 0],
    ["pending", 0],
    ["pending", 0],
  ]);
});
