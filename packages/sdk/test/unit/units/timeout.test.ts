import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { newDeadlines } from "../../../src/core/deadlines.ts";
import { isRetryableFailure, timeout } from "../../../src/core/units/timeout.ts";
import { hangUntilAborted } from "../../helpers.ts";
import { run } from "./harness.ts";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("timeout unit", () => {
  it("aborts the attempt's signal at its timeout: a retryable TimeoutError, the timer released", async () => {
    const deadlines = newDeadlines();
    let signal: AbortSignal | undefined;
    const { result } = run(timeout(deadlines, 1_000), (_, call) => {
      signal = call.signal;
      return hangUntilAborted(call.signal as AbortSignal);
    });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", scope: "attempt", timeoutMs: 1_000 });
    expect(isRetryableFailure(error)).toBe(true);
    expect(signal?.aborted).toBe(true);
    expect(deadlines.size).toBe(0);
  });

  it("ends a send that ignores its signal, and the deadline of the call is final", async () => {
    const { result } = run(timeout(newDeadlines(), 10_000), () => new Promise<Response>(() => undefined), {
      totalMs: 500,
    });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(500);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", scope: "total" });
    expect(isRetryableFailure(error)).toBe(false);
  });

  it("reads the body within the attempt: a body that stalls times out", async () => {
    const stalled = new Response(new ReadableStream({ start() {} }));
    const state = { attempts: 1, read: (r: Response) => r.text() };
    const { result } = run(timeout(newDeadlines(), 1_000), async () => stalled, { state });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toMatchObject({ kind: "timeout", scope: "attempt" });
    expect(state).toMatchObject({ response: stalled });

    const ok = { attempts: 1, read: (r: Response) => r.text() } as {
      attempts: number;
      read: (r: Response) => Promise<string>;
      body?: unknown;
    };
    await run(timeout(newDeadlines(), 1_000), async () => new Response("hello"), { state: ok }).result;
    expect(ok.body).toBe("hello");
  });

  it("turns what fetch throws into a retryable NetworkError, and the caller's abort into an AbortedError", async () => {
    const failed = await run(timeout(newDeadlines(), 1_000), () =>
      Promise.reject(new TypeError("fetch failed")),
    ).result.catch((error) => error);
    expect(failed).toMatchObject({ kind: "network", message: expect.stringContaining("fetch failed") });
    expect(isRetryableFailure(failed)).toBe(true);

    const controller = new AbortController();
    const { result } = run(
      timeout(newDeadlines(), 1_000),
      (_, call) => hangUntilAborted(call.signal as AbortSignal),
      {
        options: { signal: controller.signal },
      },
    );
    const outcome = result.catch((error) => error);
    controller.abort("stop");
    const aborted = await outcome;
    expect(aborted).toMatchObject({ kind: "aborted", reason: "stop" });
    expect(isRetryableFailure(aborted)).toBe(false);
  });
});
