import { entradaDocument } from "@entrada/mock-server";
import { describe, expect, it } from "vitest";
import { activate } from "../src/activation.ts";
import { type ForwardDeps, forward } from "../src/forward.ts";
import type { StoredRecord } from "../src/store.ts";

const destination = { name: "ga4", url: "https://collect.example/mp/collect" };
const policy = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, timeoutMs: 50 };

/** A fetch answering from a script (a status, or an error to throw), and the waits the forwarder asked for. */
function scripted(script: (number | Error)[]) {
  const calls: RequestInit[] = [];
  const waits: number[] = [];
  const deps: ForwardDeps = {
    fetch: (async (_url: string, init: RequestInit) => {
      calls.push(init);
      const next = script.shift() ?? 204;
      if (next instanceof Error) throw next;
      return new Response(null, { status: next, headers: next === 429 ? { "retry-after": "7" } : {} });
    }) as typeof fetch,
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
  };
  return { calls, waits, deps };
}

describe("forward", () => {
  it("does not retry a 4xx: the endpoint refused the payload", async () => {
    const s = scripted([400]);
    const r = await forward(destination, { a: 1 }, policy, s.deps);
    expect(r).toEqual({
      destination: "ga4",
      ok: false,
      outcome: "rejected",
      attempts: [{ status: 400, error: null }],
    });
    expect(s.calls).toHaveLength(1);
    expect(s.waits).toEqual([]);
  });

  it("retries 5xx and timeouts with exponential backoff, then delivers", async () => {
    const timeout = new DOMException("The operation timed out.", "TimeoutError");
    const s = scripted([503, timeout, 502, 200]);
    const r = await forward(destination, { a: 1 }, policy, s.deps);
    expect(r.outcome).toBe("delivered");
    expect(r.attempts.map((a) => a.status ?? a.error)).toEqual([503, "timeout", 502, 200]);
    expect(s.waits).toEqual([100, 200, 400]);
    expect(s.calls.every((c) => c.body === '{"a":1}' && c.signal instanceof AbortSignal)).toBe(true);
  });

  it("honours Retry-After on 429 and gives up after maxAttempts", async () => {
    const s = scripted([429, 500, 500, 500, 200]);
    const r = await forward(destination, {}, policy, s.deps);
    expect(r.outcome).toBe("gave_up");
    expect(r.attempts).toHaveLength(4);
    expect(s.waits).toEqual([1_000, 200, 400]); // 7 s capped at maxDelayMs, then backoff
  });
});

describe("activate: bad input is skipped with a logged reason, never forwarded half-built", () => {
  const run = async (event: unknown) => {
    const lines: string[] = [];
    const stored: StoredRecord[] = [];
    const s = scripted([]);
    const record = await activate(event, "msg_1", {
      ga4: destination,
      meta: { name: "meta", url: "https://graph.example/events" },
      store: { append: async (r) => void stored.push(r) },
      deps: s.deps,
      log: (l) => void lines.push(l),
    });
    return { record, lines, stored, calls: s.calls };
  };

  it("an unknown kind", async () => {
    const r = await run({ type: "cart.teleported", timestamp: "2026-12-01T10:00:00Z", data: {} });
    expect(r.record).toBeUndefined();
    expect(r.lines).toEqual(["msg_1 cart.teleported: skipped, not a conversion or an entrance"]);
    expect(r.calls).toHaveLength(0);
  });

  it("a purchase with a missing field: stored as skipped, nothing sent anywhere", async () => {
    const r = await run({
      type: "cart.completed",
      timestamp: "2026-12-01T10:00:00Z",
      data: { order: { id: "ord_1", createdAt: "2026-12-01T10:00:00Z", items: [] } },
    });
    expect(r.lines).toEqual(["msg_1 cart.completed: skipped, missing /data/order/total/currency"]);
    expect(r.stored).toMatchObject([{ record: "skipped", reason: "missing /data/order/total/currency" }]);
    expect(r.calls).toHaveLength(0);
  });
});

describe("activate: a destination that keeps failing goes back to the inbox", () => {
  /** The contract's published `cart.completed` example, dated now (GA4 and Meta refuse old events). */
  function purchase() {
    const hooks = (entradaDocument as unknown as { webhooks: Record<string, { post: unknown }> }).webhooks;
    const post = hooks["cart.completed"]?.post as {
      requestBody: { content: { "application/json": { examples: Record<string, { value: unknown }> } } };
    };
    const event = structuredClone(
      Object.values(post.requestBody.content["application/json"].examples)[0]?.value,
    ) as { timestamp: string; data: { order: { id: string; createdAt: string } } };
    event.timestamp = event.data.order.createdAt = new Date().toISOString();
    return event;
  }

  it("throws after the destination's retries, storing nothing (the inbox retries the event)", async () => {
    const stored: StoredRecord[] = [];
    // GA4 fails all four attempts; Meta takes it at once.
    const s = scripted([503, 204, 503, 503, 503]);
    const options = {
      ga4: destination,
      meta: { name: "meta", url: "https://graph.example/events" },
      store: { append: async (r: StoredRecord) => void stored.push(r) },
      retry: policy,
      deps: s.deps,
      log: () => {},
    };
    await expect(activate(purchase(), "msg_2", options)).rejects.toThrow("ga4 still failing after retries");
    expect(stored).toEqual([]);
    expect(s.calls).toHaveLength(5);
    // The inbox's next attempt goes through: now it is recorded, once.
    const record = await activate(purchase(), "msg_2", options);
    expect(record?.forwarded).toEqual({
      ga4: { outcome: "delivered", attempts: 1 },
      meta: { outcome: "delivered", attempts: 1 },
    });
    expect(stored).toHaveLength(1);
  });
});
