/**
 * SIGTERM during load: the CLI stops while requests are in flight and a webhook receiver hangs, exits 0, and no
 * socket to the receiver outlives it (the exit deadline itself, 1 s, is the CLI's backstop timer, not timed here).
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { bodyOf, startCli } from "../helpers.ts";

it("entrada-mock: SIGTERM under load with a hanging webhook receiver exits 0 and drops every connection", async () => {
  let receiverSockets = 0;
  let receiverClosed = 0;
  const hanging = createServer((req) => {
    receiverSockets++;
    req.socket.on("close", () => {
      receiverClosed++;
    });
  });
  await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
  const { child, state, exited, url } = await startCli(["--port", "0", "--no-docs", "--rate-limit", "off"]);
  expect(url, state.output).toBeDefined();
  const tokenResponse = await fetch(`${url}/connect/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${btoa("entrada-demo:demo-secret")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: "grant_type=client_credentials",
  });
  const auth = {
    authorization: `Bearer ${(await bodyOf(tokenResponse, "createToken")).access_token}`,
  };
  const subscribed = await fetch(`${url}/webhooks/v1/subscriptions`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      url: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/hooks`,
      eventTypes: ["*"],
    }),
  });
  expect(subscribed.status).toBe(201);
  // Load: 20 clients creating carts back to back until the server goes away.
  let stopped = false;
  let created = 0;
  const failures: string[] = [];
  const load = Array.from({ length: 20 }, async () => {
    while (!stopped) {
      try {
        const res = await fetch(`${url}/shop/v1/cart`, { method: "POST", headers: auth });
        if (res.status === 201) created++;
        else if (res.status >= 500) failures.push(String(res.status));
        await res.arrayBuffer();
      } catch {
        // The connection went away with the server: expected once SIGTERM lands.
        if (stopped) return;
      }
    }
  });
  await expect.poll(() => receiverSockets > 0 && created > 50, { timeout: 20_000 }).toBe(true);
  child.kill("SIGTERM");
  expect(await exited).toBe(0);
  stopped = true;
  await Promise.all(load);
  expect(failures).toEqual([]);
  expect(state.output).toContain("SIGTERM: stopping");
  await expect.poll(() => receiverClosed).toBe(receiverSockets);
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
});
