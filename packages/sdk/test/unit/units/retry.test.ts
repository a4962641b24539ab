import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { NetworkError } from "../../../src/core/errors.ts";
import { retryBudget } from "../../../src/core/retry-budget.ts";
import { DEFAULT_RETRY } from "../../../src/core/retry-policy.ts";
import { retry } from "../../../src/core/units/retry.ts";
import { isRetryableFailure, timeout } from "../../../src/core/units/timeout.ts";
import { recorder, run, URL_ } from "./harness.ts";

const policy = { ...DEFAULT_RETRY, baseDelayMs: 100, maxDelayMs: 1_000 };
const status = (code: number, headers: Record<string, string> = {}) =>
  new Response("", { status: code, headers });

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("retry unit", () => {
  it("retries retryable statuses after a backoff and counts every attempt", async () => {
    const { send, requests } = recorder((_, i) => (i < 2 ? status(503) : status(200)));
    const { result, state } = run(retry(policy, undefined), send);
    await vi.runAllTimersAsync();
    expect((await result).status).toBe(200);
    expect(requests).toHaveLength(3);
    expect(state.attempts).toBe(3);
  });

  it("waits as Retry-After says", async () => {
    const { send, requests } = recorder((_, i) =>
      i === 0 ? status(429, { "retry-after": "3" }) : status(200),
    );
    const { result } = run(retry(policy, undefined), send);
    await vi.advanceTimersByTimeAsync(2_999);
    expect(requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect((await result).status).toBe(200);
  });

  it("gives each attempt of a write a fresh request with the same body, and never retries a write without a key", async () => {
    const keyed = recorder((_, i) => (i === 0 ? status(503) : status(201)));
    const state = { attempts: 0, idempotencyKey: "k1" };
    const request = new Request(URL_, { method: "POST", body: "payload" });
    const first = run(retry(policy, undefined), keyed.send, { request, state });
    await vi.runAllTimersAsync();
    expect((await first.result).status).toBe(201);
    expect(await Promise.all(keyed.requests.map((r) => r.text()))).toEqual(["payload", "payload"]);
    expect(keyed.requests[0]).not.toBe(keyed.requests[1]);

    const unkeyed = recorder(() => status(503));
    const second = run(retry(policy, undefined), unkeyed.send, {
      request: new Request(URL_, { method: "POST", body: "x" }),
    });
    expect((await second.result).status).toBe(503);
    expect(unkeyed.requests).toHaveLength(1);
  });

  it("retries failures of the attempt itself, never other errors", async () => {
    const network = new NetworkError("network error: reset");
    // The timeout unit below marks the failures another attempt may cure.
    const attempts = recorder((_, i) => (i === 0 ? Promise.reject(new TypeError("reset")) : status(200)));
    const chain = (next: Parameters<ReturnType<typeof retry>>[0]) =>
      retry(policy, undefined)(timeout(1_000)(next));
    const { result } = run(chain, attempts.send);
    await vi.runAllTimersAsync();
    expect((await result).status).toBe(200);
    expect(isRetryableFailure(network)).toBe(false);

    const final = recorder(() => Promise.reject(network));
    const failed = run(retry(policy, undefined), final.send).result;
    await expect(failed).rejects.toBe(network);
    expect(final.requests).toHaveLength(1);
  });

  it("stops at maxRetries, at the deadline and when the shared budget is spent", async () => {
    const many = recorder(() => status(503));
    const capped = run(retry({ ...policy, maxRetries: 1 }, undefined), many.send);
    await vi.runAllTimersAsync();
    expect((await capped.result).status).toBe(503);
    expect(many.requests).toHaveLength(2);

    // A Retry-After past the deadline ends the call at once.
    const late = recorder(() => status(503, { "retry-after": "10" }));
    const deadline = run(retry(policy, undefined), late.send, { totalMs: 5_000 });
    expect((await deadline.result).status).toBe(503);
    expect(late.requests).toHaveLength(1);

    const budget = retryBudget({ capacity: 1 });
    const spent = recorder(() => status(503));
    const a = run(retry(policy, budget), spent.send);
    await vi.runAllTimersAsync();
    await a.result;
    const b = run(retry(policy, budget), spent.send);
    await vi.runAllTimersAsync();
    await b.result;
    // The budget (1 token) paid for one retry only: 2 attempts, then 1.
    expect(spent.requests).toHaveLength(3);
  });

  it("ends the backoff when the caller aborts", async () => {
    const controller = new AbortController();
    const { send, requests } = recorder(() => status(503));
    const chain = (next: Parameters<ReturnType<typeof retry>>[0]) =>
      retry(policy, undefined)(timeout(1_000)(next));
    const { result } = run(chain, send, { options: { signal: controller.signal } });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(0);
    controller.abort(new Error("left the page"));
    await vi.advanceTimersByTimeAsync(0);
    expect(await outcome).toMatchObject({ kind: "aborted", reason: new Error("left the page") });
    expect(requests).toHaveLength(1);
  });

  it("retries a 409 idempotency-key-in-use, and hands other conflicts back readable", async () => {
    const inUse = new Response(
      JSON.stringify({ type: "https://docs.entrada.dev/problems/idempotency-key-in-use" }),
      {
        status: 409,
        headers: { "content-type": "application/problem+json" },
      },
    );
    const { send, requests } = recorder((_, i) => (i === 0 ? inUse : status(201)));
    const state = { attempts: 0, idempotencyKey: "k1" };
    const first = run(retry(policy, undefined), send, {
      request: new Request(URL_, { method: "POST" }),
      state,
    });
    await vi.runAllTimersAsync();
    expect((await first.result).status).toBe(201);
    expect(requests).toHaveLength(2);

    const conflict = recorder(() => new Response('{"type":"x/conflict"}', { status: 409 }));
    const other = run(retry(policy, undefined), conflict.send, {
      request: new Request(URL_, { method: "POST" }),
      state: { attempts: 0, idempotencyKey: "k2" },
    });
    expect(await (await other.result).text()).toBe('{"type":"x/conflict"}');
  });
});
