import { signWebhook } from "@entrada/sdk/webhooks";
import type { Clock, World } from "../../core/types.ts";
import { duePerSubscription } from "./limits.ts";
import { type AttemptOutcome, dueDeliveries, recordAttempt } from "./queue.ts";
import { activeSecrets } from "./secrets.ts";
import { type WebhookDeliveryRecord, webhooksSlice } from "./state.ts";

/** The subset of `fetch` the worker needs, so Node, browsers and tests can inject their own. */
export type FetchLike = (
  url: string,
  init: { method: string; headers: Record<string, string>; body: string; signal?: AbortSignal },
) => Promise<{ status: number; headers: { get(name: string): string | null }; text(): Promise<string> }>;

export interface DeliverOptions {
  fetch: FetchLike;
  /**
   * The clock of the world being served (each mock session has its own). It schedules attempts and retries, picks
   * the signing secrets during a rotation overlap and dates the delivery log.
   */
  clock: Clock;
  /**
   * Real wall-clock time in ms (default `Date.now`), read at each attempt for `webhook-timestamp` and the signature.
   * Receivers compare that header with their own clock (±5 min), so it must never be mock time: after
   * `POST /__mock/clock` moves the session a day ahead, deliveries must still verify. The payload's own
   * `timestamp` stays the event's time on the mock clock.
   */
  wallClock?: () => number;
  /** Per-attempt timeout in ms (default 15 s, as the contract tells receivers); a timeout is a failed attempt. */
  timeoutMs?: number;
  random?: () => number;
  userAgent?: string;
  /**
   * Aborts every attempt in progress when it fires (shutdown): an aborted attempt is not recorded, so the delivery
   * stays pending and is retried by the next run.
   */
  signal?: AbortSignal;
}

/** Most attempts in flight at once, over every world (so a burst never opens thousands of sockets). */
export const MAX_IN_FLIGHT = 64;
/** Most attempts in flight per subscription: a receiver that hangs holds at most this many, nothing else waits. */
export const MAX_IN_FLIGHT_PER_SUBSCRIPTION = 2;

/** Deliveries currently being sent, so overlapping ticks never send one twice; and their subscriptions. */
const inFlight = new Set<string>();
const inFlightBySubscription = new Map<string, number>();

/** Map a fetch failure to the contract's transport error codes. */
export function classifyError(error: unknown): NonNullable<AttemptOutcome["error"]> {
  const e = error as { name?: string; message?: string; cause?: { code?: string; name?: string } };
  const code = e?.cause?.code ?? "";
  const text = `${e?.name ?? ""} ${e?.message ?? ""} ${code}`;
  if (e?.name === "TimeoutError" || e?.name === "AbortError" || /ETIMEDOUT|UND_ERR_.*TIMEOUT/.test(code))
    return "timeout";
  if (/ECONNREFUSED/.test(text)) return "connection_refused";
  if (/ENOTFOUND|EAI_AGAIN|EAI_NONAME/.test(text)) return "dns_error";
  if (/CERT|SSL|TLS|ERR_TLS/.test(text)) return "tls_error";
  return "network_error";
}

function parseRetryAfter(value: string | null, now: number): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * Send every due delivery of one world once, signed with the SDK's `signWebhook` (Standard Webhooks: `webhook-id`,
 * `webhook-timestamp`, `webhook-signature`, two signatures during a secret rotation), and record the attempts.
 * `webhook-timestamp` is real wall-clock time at the attempt (see `wallClock`); everything else runs on the mock clock.
 * @returns the number of attempts made.
 */
export async function deliverDue(world: World, options: DeliverOptions): Promise<number> {
  const state = webhooksSlice(world);
  const due: WebhookDeliveryRecord[] = [];
  // Snapshots from before the per-subscription queues existed are scanned the old way.
  const pending = state.pendingQueue
    ? duePerSubscription(
        state,
        options.clock.now(),
        MAX_IN_FLIGHT_PER_SUBSCRIPTION,
        (sid) => (inFlightBySubscription.get(sid) ?? 0) >= MAX_IN_FLIGHT_PER_SUBSCRIPTION,
      )
    : dueDeliveries(world, options.clock.now());
  for (const d of pending) {
    if (inFlight.size + due.length >= MAX_IN_FLIGHT) break;
    const busy = inFlightBySubscription.get(d.subscriptionId) ?? 0;
    if (inFlight.has(d.id) || busy >= MAX_IN_FLIGHT_PER_SUBSCRIPTION) continue;
    inFlightBySubscription.set(d.subscriptionId, busy + 1);
    inFlight.add(d.id);
    due.push(d);
  }
  await Promise.all(
    due.map(async (delivery) => {
      const started = Date.now();
      try {
        const subscription = state.subscriptions[delivery.subscriptionId];
        if (!subscription) return;
        const signed = await signWebhook({
          id: delivery.messageId,
          timestamp: Math.floor((options.wallClock ?? Date.now)() / 1000),
          body: delivery.body,
          secret: activeSecrets(subscription, options.clock.now()),
        });
        const outcome: AttemptOutcome = { statusCode: null, error: null, responseBody: null, durationMs: 0 };
        const timeout = AbortSignal.timeout(options.timeoutMs ?? 15_000);
        const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
        try {
          const response = await options.fetch(subscription.url, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "user-agent": options.userAgent ?? "Entrada-Webhooks/1.0 (mock)",
              ...signed,
            },
            body: delivery.body,
            signal,
          });
          outcome.statusCode = response.status;
          outcome.retryAfterSeconds = parseRetryAfter(
            response.headers.get("retry-after"),
            options.clock.now(),
          );
          // The excerpt is 1 KB: read at most that much of what a receiver sends back.
          outcome.responseBody = await response.text().then(
            (text) => text.slice(0, 1024),
            () => null,
          );
        } catch (error) {
          // Shutdown: not the receiver's fault, no attempt recorded (the delivery stays pending).
          if (options.signal?.aborted) return;
          outcome.error = classifyError(error);
        }
        outcome.durationMs = Date.now() - started;
        recordAttempt(world, delivery.id, outcome, options.clock.now(), options.random);
      } finally {
        inFlight.delete(delivery.id);
        const left = (inFlightBySubscription.get(delivery.subscriptionId) ?? 1) - 1;
        if (left > 0) inFlightBySubscription.set(delivery.subscriptionId, left);
        else inFlightBySubscription.delete(delivery.subscriptionId);
      }
    }),
  );
  return due.length;
}

export interface DeliveryWorkerOptions extends Omit<DeliverOptions, "clock"> {
  /** The worlds to serve with their clocks (the default session and every isolated one). */
  targets: () => Iterable<{ world: World; clock: Clock }>;
  /** Real-time polling interval in ms (default 250). Retries are scheduled on the mock clock. */
  intervalMs?: number;
  /** Called when a tick throws unexpectedly (the worker keeps running). */
  onError?: (error: unknown) => void;
}

export interface DeliveryWorker {
  /** Deliver what is due now in every world (also runs on the interval). */
  tick(): Promise<number>;
  /** Stop polling and abort the attempts in progress (their deliveries stay pending); resolves at once. */
  stop(): Promise<void>;
}

/**
 * Poll the worlds and deliver due webhooks. Platform-free: the transport passes its `fetch` (the node transport
 * starts it with the global `fetch`).
 * @example const worker = startDeliveryWorker({ targets: () => [...core.sessions.values()], fetch }); await worker.stop();
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const shutdown = new AbortController();
  const running = new Set<Promise<number>>();
  let stopped = false;
  // Every world is served on its own: a tick starts each world's due attempts and does not wait for another
  // world's (or a previous tick's) receivers, so one that hangs delays nothing but its own deliveries.
  const tick = (): Promise<number> => {
    if (stopped) return Promise.resolve(0);
    const started: Promise<number>[] = [];
    for (const target of options.targets()) {
      const run = deliverDue(target.world, { ...options, clock: target.clock, signal: shutdown.signal });
      running.add(run);
      run.finally(() => running.delete(run)).catch(() => {});
      started.push(run);
    }
    return Promise.all(started).then((counts) => counts.reduce((a, b) => a + b, 0));
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
      // Attempts in progress are aborted (their deliveries stay pending): stopping never waits for a receiver.
      shutdown.abort();
      await Promise.allSettled([...running]);
    },
  };
}
