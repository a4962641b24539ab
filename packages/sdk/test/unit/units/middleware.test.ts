import { describe, expect, it } from "vitest";
import { NetworkError } from "../../../src/core/errors.ts";
import { type Middleware, middleware } from "../../../src/core/units/middleware.ts";
import { recorder, run } from "./harness.ts";

describe("middleware unit", () => {
  it("runs onRequest in order and onResponse in reverse, with the attempt's facts", async () => {
    const order: string[] = [];
    const hooks = (name: string): Middleware => ({
      onRequest: ({ attempt, operationId }) => void order.push(`${name}.request ${operationId} #${attempt}`),
      onResponse: ({ response }) => void order.push(`${name}.response ${response.status}`),
    });
    const { send } = recorder();
    await run(middleware({ list: [hooks("a"), hooks("b")] }), send, {
      state: { attempts: 2, operationId: "getCart" },
    }).result;
    expect(order).toEqual([
      "a.request getCart #2",
      "b.request getCart #2",
      "b.response 200",
      "a.response 200",
    ]);
  });

  it("reads the body of a response a middleware made, as the transport would have", async () => {
    const state = { attempts: 1, read: (r: Response) => r.text() } as {
      attempts: number;
      read: (r: Response) => Promise<string>;
      body?: unknown;
    };
    const { send, requests } = recorder();
    await run(middleware({ list: [{ onRequest: () => new Response("from cache") }] }), send, { state })
      .result;
    expect(requests).toEqual([]);
    expect(state.body).toBe("from cache");
  });

  it("hands the attempt's error to onError, and re-throws it when none answers", async () => {
    const failure = new NetworkError("network error: reset");
    const seen: unknown[] = [];
    const sent = run(middleware({ list: [{ onError: ({ error }) => void seen.push(error) }] }), () =>
      Promise.reject(failure),
    ).result;
    await expect(sent).rejects.toBe(failure);
    expect(seen).toEqual([failure]);
  });

  it("costs nothing without middleware: the request goes straight on", async () => {
    const { send, requests } = recorder();
    const request = new Request("https://api.test/x");
    await run(middleware({ list: [] }), send, { request }).result;
    expect(requests[0]).toBe(request);
  });
});
