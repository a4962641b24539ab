import { signWebhook } from "@entrada/sdk/webhooks";
import type { Clock, World } from "../../core/types.ts";
import { dueDeliveries, recordAttempt } from "./queue.ts";
import { activeSecrets } from "./secrets.ts";
import { webhooksSlice } from "./state.ts";

/** The subset of `fetch` the worker needs, so Node, browsers and tests can inject their own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface DeliverOptions {
  fetch: FetchLike;
  clock: Clock;
  /** Per-attempt timeout in ms (default 10 s); a timeout counts as a failed attempt. */
  timeoutMs?: number;
  random?: () => number;
  userAgent?: string;
}

/** Deliveries currently being sent, so overlapping ticks never send one twice. */
const inFlight = new Set<string>();

function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Send every due delivery of one world once, signed with the SDK's `signWebhook` (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, two signatures during a secret rotation), and record the attempts.
 * @returns the number of attempts made.
 */
export async function deliverDue(world: World, options: DeliverOptions): Promise<number> {
  const state = webhooksSlice(world);
  const now = options.clock.now();
  const due = dueDeliveries(world, now).filter((d) => !inFlight.has(d.id));
  await Promise.all(
    due.map(async (delivery) => {
      const endpoint = state.endpoints[delivery.endpointId];
      const message = state.messages[delivery.messageId];
      if (!endpoint || !message) return;
      inFlight.add(delivery.id);
      const started = Date.now();
      try {
        const secrets = activeSecrets(endpoint, options.clock.now());
        const signed = await signWebhook({
          id: message.id,
          timestamp: Math.floor(options.clock.now() / 1000),
          body: message.payload,
          secret: secrets,
        });
        let status: number | null = null;
        let body: string | null = null;
        let retryAfter: number | null = null;
        try {
          const response = await options.fetch(endpoint.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "user-agent": options.userAgent ?? "Entrada-Webhooks/1.0 (mock)",
              ...signed,
            },
            body: message.payload,
            signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
          });
          status = response.status;
          retryAfter = parseRetryAfter(response.headers.get("retry-after"), options.clock.now());
          body = await response.text().catch(() => null);
        } catch (error) {
          body = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        }
        recordAttempt(
          world,
          delivery.id,
          { status, body, durationMs: Date.now() - started, retryAfterSeconds: retryAfter },
          options.clock.now(),
          options.random,
        );
      } finally {
        inFlight.delete(delivery.id);
      }
    }),
  );
  return due.length;
}

export interface DeliveryWorkerOptions extends DeliverOptions {
  /** The worlds to serve (the default world and every isolated session). */
  worlds: () => Iterable<World>;
  /** Real-time polling interval in ms (default 250). Retries are scheduled on the mock clock. */
  intervalMs?: number;
  /** Called when a tick throws unexpectedly (the worker keeps running). */
  onError?: (error: unknown) => void;
}

export interface DeliveryWorker {
  /** Deliver what is due now in every world (also runs on the interval). */
  tick(): Promise<number>;
  /** Stop polling and wait for the attempts in progress. */
  stop(): Promise<void>;
}

/**
 * Poll the worlds and deliver due webhooks. Platform-free: the transport passes its `fetch` (the node transport
 * starts it with the global `fetch`).
 * @example const worker = startDeliveryWorker({ worlds: () => engine.worlds(), fetch, clock }); await worker.stop();
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  let running: Promise<number> | null = null;
  let stopped = false;
  const tick = (): Promise<number> => {
    if (running) return running;
    running = (async () => {
      let attempts = 0;
      for (const world of options.worlds()) attempts += await deliverDue(world, options);
      return attempts;
    })().finally(() => {
      running = null;
    });
    return running;
  };
  const timer = setInterval(() => {
    if (stopped) return;
    tick().catch((error: unknown) => options.onError?.(error));
  }, options.intervalMs ?? 250);
  (timer as { unref?: () => void }).unref?.();
  return {
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      if (running) await running.catch(() => 0);
    },
  };
}
