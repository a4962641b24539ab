import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
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
    let signal: AbortSignal | undefined;
    const { result } = run(timeout(1_000), (_, call) => {
      signal = call.signal;
      return hangUntilAborted(call.signal as AbortSignal);
    });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    const error = await outcome;
    expect(error).toMatchObject({ kind: "timeout", scope: "attempt", timeoutMs: 1_000 });
    expect(isRetryableFailure(error)).toBe(true);
    expect(signal?.aborted).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds one timer while the attempt runs and none once it ended, however it ended", async () => {
    let answer: (response: Response) => void = () => undefined;
    const pending = run(timeout(1_000), () => new Promise<Response>((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    answer(new Response("late enough"));
    await pending.result;
    expect(vi.getTimerCount()).toBe(0);

    await run(timeout(1_000), () => Promise.reject(new TypeError("fetch failed"))).result.catch(
      () => undefined,
    );
    const controller = new AbortController();
    const aborted = run(timeout(1_000), (_, call) => hangUntilAborted(call.signal as AbortSignal), {
      options: { signal: controller.signal },
    }).result.catch(() => undefined);
    controller.abort("stop");
    await aborted;
    expect(vi.getTimerCount()).toBe(0);
  });

  it("waits out a timeout longer than a timer can hold (2³¹−1 ms) instead of firing at once", async () => {
    let answer: (response: Response) => void = () => undefined;
    const { result } = run(
      timeout(3_000_000_000),
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(50);
    answer(new Response("ok"));
    expect(await outcome).toBeInstanceOf(Response);
  });

  it("ends a send that ignores its signal, and the deadline of the call is final", async () => {
    const { result } = run(timeout(10_000), () => new Promise<Response>(() => undefined), {
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
    const { result } = run(timeout(1_000), async () => stalled, { state });
    const outcome = result.catch((error) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await outcome).toMatchObject({ kind: "timeout", scope: "attempt" });
    expect(state).toMatchObject({ response: stalled });

    const ok = { attempts: 1, read: (r: Response) => r.text() } as {
      attempts: number;
      read: (r: Response) => Promise<string>;
      body?: unknown;
    };
    await run(timeout(1_000), async () => new Response("hello"), { state: ok }).result;
    expect(ok.body).toBe("hello");
  });

  it("turns what fetch throws into a retryable NetworkError, and the caller's abort into an AbortedError", async () => {
    const failed = await run(timeout(1_000), () =>
      Promise.reject(new TypeError("fetch failed")),
    ).result.catch((error) => error);
    expect(failed).toMatchObject({ kind: "network", message: expect.stringContaining("fetch failed") });
    expect(isRetryableFailure(failed)).toBe(true);

    const controller = new AbortController();
    const { result } = run(timeout(1_000), (_, call) => hangUntilAborted(call.signal as AbortSignal), {
      options: { signal: controller.signal },
    });
    const outcome = result.catch((error) => error);
    controller.abort("stop");
    const aborted = await outcome;
    expect(aborted).toMatchObject({ kind: "aborted", reason: "stop" });
    expect(isRetryableFailure(aborted)).toBe(false);
  });
});
