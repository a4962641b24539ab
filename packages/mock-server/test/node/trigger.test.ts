import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import document from "@entrada/openapi/openapi.json" with { type: "json" };
import { verifyWebhook } from "@entrada/sdk/webhooks";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockServer, startMockServer } from "../../src/node/index.ts";
import { triggerMain, webhookKinds } from "../../src/node/trigger.ts";
import { runCli } from "../helpers.ts";

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A receiver that records deliveries and lets a test await the next one (no sleeps). */
function receiver(status: () => number) {
  const got: Delivery[] = [];
  let wake: (() => void) | undefined;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    got.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(status()).end();
    wake?.();
  });
  const arrival = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  return { server, got, arrival };
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false, logger: false });
addFormats(ajv);
ajv.addSchema(document as object, "contract");
const validEvent = ajv.getSchema("contract#/components/schemas/WebhookEvent");

describe("entrada-mock trigger", () => {
  let mock: MockServer;
  let hook: ReturnType<typeof receiver>;
  let url: string;
  let answer = 204;

  beforeAll(async () => {
    mock = await startMockServer({ port: 0 });
    hook = receiver(() => answer);
    await new Promise<void>((r) => hook.server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}/hooks`;
  });
  afterAll(async () => {
    await mock?.close();
    if (hook) await new Promise((r) => (hook.server as Server).close(r));
  });

  const io = () => {
    const lines = { out: [] as string[], err: [] as string[] };
    const seen = hook.got.length;
    return {
      lines,
      io: {
        out: (l: string) => void lines.out.push(l),
        err: (l: string) => void lines.err.push(l),
        // Poll again once the receiver has been called, never on a timer.
        // (once it has, the attempt may still be being recorded: poll again at once).
        sleep: () => (hook.got.length > seen ? Promise.resolve() : hook.arrival()),
      },
    };
  };

  it("lists the 30 kinds of the contract", async () => {
    const { lines, io: out } = io();
    expect(await triggerMain(["--list"], out)).toBe(0);
    expect(lines.out).toHaveLength(30);
    expect(lines.out.join("\n")).toMatch(/^cart\.completed\s+A purchase was completed$/m);
    expect(webhookKinds().map((k) => k.kind)).toEqual(Object.keys(document.webhooks).sort());
  });

  it("delivers every kind signed, through the normal delivery path, with a contract-valid payload", async () => {
    let secret: string | undefined;
    for (const { kind } of webhookKinds()) {
      const { lines, io: out } = io();
      const before = hook.got.length;
      const arrived = hook.arrival();
      const code = await triggerMain([kind, "--url", url, "--base-url", mock.url, "--wait", "0"], out);
      expect(code, lines.err.join("\n")).toBe(0);
      secret ??= /secret (whsec_\S+)/.exec(lines.out.join("\n"))?.[1];
      if (hook.got.length === before) await arrived;
      const delivery = hook.got.at(-1) as Delivery;
      const event = await verifyWebhook(delivery.body, delivery.headers, secret as string);
      expect(event.type).toBe(kind);
      expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.parse("2026-01-01"));
      expect(validEvent?.(event), `${kind}: ${JSON.stringify(validEvent?.errors)}`).toBe(true);
      if (kind === "cart.completed") {
        // The purchase sample carries the visitor's GA4 ids, as a widget with analytics consent passes them.
        if (event.type !== kind) throw new Error(`delivered ${event.type} for ${kind}`);
        const order = event.type === "cart.completed" ? event.data.order : undefined;
        expect(order?.analytics?.ga4ClientId).toMatch(/^\d+\.\d+$/);
        expect(order?.analytics?.ga4SessionId).toMatch(/^\d+$/);
      }
    }
    expect(secret).toMatch(/^whsec_/);
  }, 60_000);

  /** Every RFC 3339 date-time string inside `value`, by JSON pointer. */
  function times(value: unknown, at = ""): Record<string, number> {
    if (typeof value === "string")
      return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(value) ? { [at]: Date.parse(value) } : {};
    if (value === null || typeof value !== "object") return {};
    return Object.assign({}, ...Object.entries(value).map(([k, v]) => times(v, `${at}/${k}`)));
  }

  async function triggerOnce(kind: string) {
    const { lines, io: out } = io();
    const before = hook.got.length;
    const arrived = hook.arrival();
    const code = await triggerMain(
      [kind, "--url", url, "--base-url", mock.url, "--wait", "0", "--new-secret"],
      out,
    );
    expect(code, lines.err.join("\n")).toBe(0);
    const secret = /new secret (whsec_\S+)/.exec(lines.out.join("\n"))?.[1] as string;
    if (hook.got.length === before) await arrived;
    const delivery = hook.got.at(-1) as Delivery;
    return verifyWebhook(delivery.body, delivery.headers, secret);
  }

  it("dates every time inside data at the mock clock's now, keeping the example's spacing, with fresh ids", async () => {
    const example = document.webhooks["cart.completed"].post.requestBody.content["application/json"].examples;
    const exampleData = Object.values(example)[0]?.value.data;
    const exampleOrder = exampleData?.order.id;
    const exampleTimes = times(exampleData);
    expect(Object.keys(exampleTimes).length).toBeGreaterThan(1);
    const first = await triggerOnce("cart.completed");
    const second = await triggerOnce("cart.completed");
    for (const event of [first, second]) {
      const got = times(event.data);
      expect(Object.keys(got).sort()).toEqual(Object.keys(exampleTimes).sort());
      // The latest time inside data is the event's own timestamp (the mock clock's now) ...
      expect(Math.max(...Object.values(got))).toBe(Date.parse(event.timestamp));
      // ... and the times keep their distances from each other (createdAt before paidAt, as in the example).
      const shift = (got["/order/createdAt"] ?? 0) - (exampleTimes["/order/createdAt"] ?? 0);
      for (const [pointer, time] of Object.entries(exampleTimes))
        expect(got[pointer], pointer).toBe(time + shift);
      expect(validEvent?.(event), JSON.stringify(validEvent?.errors)).toBe(true);
    }
    const orderOf = (e: typeof first) => {
      if (e.type !== "cart.completed") throw new Error(`expected cart.completed, got ${e.type}`);
      return e.data.order;
    };
    expect(orderOf(first).id).not.toBe(exampleOrder);
    expect(orderOf(second).id).not.toBe(orderOf(first).id);
    expect(orderOf(first).id).toMatch(/^ord_[0-9A-Z]{26}$/);
    // Every id is fresh (tickets and payment too), and differs between two triggers.
    const exampleTickets = exampleData?.order.ticketIds ?? [];
    expect(orderOf(first).ticketIds).toHaveLength(exampleTickets.length);
    for (const id of orderOf(first).ticketIds) expect(exampleTickets).not.toContain(id);
    expect(orderOf(second).paymentId).not.toBe(orderOf(first).paymentId);
  });

  it("refuses a kind that does not exist with exit 2, the nearest kinds and --list", async () => {
    const { lines, io: out } = io();
    expect(await triggerMain(["order.paid", "--url", url, "--base-url", "http://127.0.0.1:9"], out)).toBe(2);
    const message = lines.err[0] ?? "";
    const named = /unknown kind "order\.paid"; the nearest are ([a-z_.]+), ([a-z_.]+) and ([a-z_.]+)/.exec(
      message,
    );
    expect(named, message).not.toBeNull();
    const kinds = webhookKinds().map((k) => k.kind);
    for (const kind of named?.slice(1) ?? []) expect(kinds).toContain(kind);
    expect(message).toContain("entrada-mock trigger --list");
  });

  it("waits for the attempt and reports the receiver's answer; 5xx exits 1", async () => {
    answer = 500;
    const { lines, io: out } = io();
    expect(await triggerMain(["entrance.admitted", "--url", url, "--base-url", mock.url], out)).toBe(1);
    expect(lines.out.join("\n")).toMatch(/subscription whk_\S+ for .* \(existing/);
    expect(lines.out.at(-1)).toMatch(
      /^entrance\.admitted: your receiver answered HTTP 500 in \d+ ms \(delivery pending\)$/,
    );
    answer = 204;
  });

  it("refuses an unknown kind with the near ones, before any request", async () => {
    const { lines, io: out } = io();
    expect(await triggerMain(["cart.complete", "--url", url, "--base-url", "http://127.0.0.1:9"], out)).toBe(
      2,
    );
    expect(lines.err[0]).toContain(`unknown kind "cart.complete"; the nearest are cart.completed,`);
    expect(await triggerMain(["cart.completed"], out)).toBe(2);
    expect(lines.err[1]).toContain("--url is required");
  });

  it("is wired into the entrada-mock binary", async () => {
    const { state, exited } = runCli(["trigger", "--list"]);
    expect(await exited).toBe(0);
    expect(state.stdout.trim().split("\n")).toHaveLength(30);
  });
});
