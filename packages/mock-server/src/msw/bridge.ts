/**
 * msw transport: ONE catch-all handler scoped to the base URL bridges every request to the engine, so
 * matching stays a route-tree lookup however many operations the document has. Works with `setupServer` (Node
 * tests, through `./index.ts`, which adds the run-time schema compiler) and `setupWorker` (the browser entry,
 * which does not: precompiled validators only, strict-CSP safe).
 */
import { HttpResponse, http, type RequestHandler } from "msw";
import type { MockCore } from "../core/engine.ts";
import type { MockRequest } from "../core/types.ts";
import { createEntradaMock, type EntradaMockOptions } from "../index.ts";
import { type FetchLike, startDeliveryWorker } from "../sections/webhooks/index.ts";

export interface MockHandlersOptions extends EntradaMockOptions {
  /** Where the mocked API lives, e.g. "https://api.entrada.dev" or "http://localhost:5173/api". */
  baseUrl: string;
  /** An engine to serve instead of a new one (share one between transports). */
  core?: MockCore;
  /**
   * Deliver webhooks to registered subscriptions (default off: in tests, assert on `/__mock/events` or the
   * webhooks API instead). `true` posts with the global fetch; pass a fetch to capture deliveries.
   */
  deliverWebhooks?: boolean | FetchLike;
}

export interface EntradaMsw {
  /** Pass to `setupServer(...handlers)` / `setupWorker(...handlers)`. */
  handlers: RequestHandler[];
  core: MockCore;
  /** Resets every session (or one) to the seed. */
  reset(sessionId?: string): void;
  baseUrl: string;
  /** Stops webhook delivery (when `deliverWebhooks` is on); the handlers keep working. */
  close(): Promise<void>;
  /**
   * Completes a pending `redirect` payment as the hosted page's Pay / Fail / Cancel buttons would, and returns
   * the URL the page would redirect to (`returnUrl` + `entrada_payment` + `entrada_result`). For browser-only
   * setups: msw's service worker does not serve top-level navigations once the page that runs it unloads.
   */
  completePayment(
    paymentId: string,
    result: "success" | "failure" | "cancel",
    mockSession?: string,
  ): Promise<string>;
}

/** Converts a Fetch Request into the engine's request. */
export async function toMockRequest(request: Request): Promise<MockRequest> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  let body: Uint8Array | null = null;
  if (request.method !== "GET" && request.method !== "HEAD" && request.body !== null) {
    const buffer = await request.arrayBuffer();
    body = buffer.byteLength > 0 ? new Uint8Array(buffer) : null;
  }
  return { method: request.method, url: request.url, headers, body };
}

/** The msw handlers plus the engine behind them, with whatever `schemaCompiler` the caller passes (or none). */
export function bridgeMock(options: MockHandlersOptions): EntradaMsw {
  const { baseUrl, core: given, deliverWebhooks = false, ...coreOptions } = options;
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/$/, "");
  const core = given ?? createEntradaMock({ ...coreOptions, ...(basePath ? { basePath } : {}) });
  const handler = http.all(`${base.origin}${basePath}/*`, async ({ request }) => {
    const response = await core.handle(await toMockRequest(request));
    if (response.drop) return HttpResponse.error();
    const body =
      response.body === null
        ? null
        : typeof response.body === "string"
          ? response.body
          : (response.body.slice().buffer as ArrayBuffer);
    return new HttpResponse(body, { status: response.status, headers: response.headers });
  });
  const worker = deliverWebhooks
    ? startDeliveryWorker({
        targets: () => core.listSessions().map((s) => ({ world: s.world, clock: s.clock })),
        fetch: deliverWebhooks === true ? (url, init) => fetch(url, init) : deliverWebhooks,
      })
    : null;
  return {
    handlers: [handler],
    core,
    baseUrl: `${base.origin}${basePath}`,
    reset: (sessionId) => core.reset(sessionId),
    close: async () => {
      await worker?.stop();
    },
    completePayment: async (paymentId, result, mockSession) => {
      const response = await core.handle({
        method: "POST",
        url: `${base.origin}${basePath}/__mock/pay/${encodeURIComponent(paymentId)}`,
        headers: {
          "content-type": "application/json",
          ...(mockSession ? { "x-mock-session": mockSession } : {}),
        },
        body: new TextEncoder().encode(JSON.stringify({ result })),
      });
      const location = response.headers.location;
      if (response.status !== 303 || !location) {
        throw new Error(`Cannot complete payment ${paymentId}: ${response.status} ${String(response.body)}`);
      }
      return location;
    },
  };
}
