import type { Clock, World } from "../../core/types.ts";
import { type DeliveryAttempt, type WebhookDelivery, type WebhookEndpoint, webhooksSlice } from "./state.ts";

/**
 * Delays before retry n (after attempt n failed). Exponential, Standard Webhooks / Svix style, spanning about
 * three days: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h — ten attempts in all.
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 86_400, 86_400,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
/** ±20 % jitter spreads retries of many deliveries that failed together. */
export const JITTER = 0.2;

export interface WebhookEventInput {
  type: string;
  data: Record<string, unknown>;
  /** Message id (the `webhook-id`); the engine passes its `EmittedEvent.id`. Default: a new `msg_` id. */
  id?: string;
  /** RFC 3339 time of the event; default: the clock's now. */
  timestamp?: string;
}

export type IdFactory = (prefix: string) => string;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID-shaped id (time-ordered), for callers without the engine's `ctx.id`. */
export function ulid(prefix: string, now: number): string {
  let time = "";
  let t = Math.floor(now);
  for (let i = 0; i < 10; i++) {
    time = CROCKFORD[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  let tail = "";
  for (const b of bytes) tail += CROCKFORD[b % 32];
  return `${prefix}_${time}${tail}`;
}

function matches(endpoint: WebhookEndpoint, type: string): boolean {
  return (
    endpoint.status === "enabled" &&
    (endpoint.enabledEvents.length === 0 || endpoint.enabledEvents.includes(type))
  );
}

function newDelivery(
  endpointId: string,
  messageId: string,
  type: string,
  now: number,
  id: IdFactory,
  replayOf: string | null,
): WebhookDelivery {
  const iso = new Date(now).toISOString();
  return {
    id: id("dlv"),
    endpointId,
    messageId,
    eventType: type,
    status: "pending",
    attempts: [],
    nextAttemptAt: now,
    replayOf,
    createdAt: iso,
    updatedAt: iso,
  };
}

/**
 * Record an event and queue one delivery per enabled endpoint subscribed to its type. This is what the engine
 * calls for `ctx.emit(type, data)`; delivery itself is asynchronous (see `deliverDue`).
 * @returns the message id (the `webhook-id` header), and the ids of the queued deliveries.
 * @example enqueueWebhookEvent(world, { type: "ticket.issued", data: { ticketId } }, clock)
 */
export function enqueueWebhookEvent(
  world: World,
  event: WebhookEventInput,
  clock: Clock,
  id: IdFactory = (prefix) => ulid(prefix, clock.now()),
  onlyEndpointId?: string,
): { messageId: string; deliveryIds: string[] } {
  const state = webhooksSlice(world);
  const now = clock.now();
  const timestamp = event.timestamp ?? new Date(now).toISOString();
  const messageId = event.id ?? id("msg");
  state.messages[messageId] = {
    id: messageId,
    type: event.type,
    timestamp,
    payload: JSON.stringify({ type: event.type, timestamp, data: event.data }),
  };
  const deliveryIds: string[] = [];
  for (const endpointId of state.endpointOrder) {
    const endpoint = state.endpoints[endpointId];
    if (!endpoint) continue;
    if (
      onlyEndpointId !== undefined
        ? endpointId !== onlyEndpointId || endpoint.status !== "enabled"
        : !matches(endpoint, event.type)
    )
      continue;
    const delivery = newDelivery(endpointId, messageId, event.type, now, id, null);
    state.deliveries[delivery.id] = delivery;
    state.deliveryOrder.push(delivery.id);
    deliveryIds.push(delivery.id);
  }
  return { messageId, deliveryIds };
}

/** Queue the same message again to the same endpoint (same `webhook-id`, so receivers can dedupe). */
export function replayDelivery(
  world: World,
  deliveryId: string,
  clock: Clock,
  id: IdFactory,
): WebhookDelivery | null {
  const state = webhooksSlice(world);
  const original = state.deliveries[deliveryId];
  if (!original) return null;
  const delivery = newDelivery(
    original.endpointId,
    original.messageId,
    original.eventType,
    clock.now(),
    id,
    original.id,
  );
  state.deliveries[delivery.id] = delivery;
  state.deliveryOrder.push(delivery.id);
  return delivery;
}

/** Pending deliveries whose next attempt is due at `now`, to enabled endpoints, oldest due first. */
export function dueDeliveries(world: World, now: number): WebhookDelivery[] {
  const state = webhooksSlice(world);
  const due: WebhookDelivery[] = [];
  for (const did of state.deliveryOrder) {
    const d = state.deliveries[did];
    if (!d || d.status !== "pending" || d.nextAttemptAt === null || d.nextAttemptAt > now) continue;
    if (state.endpoints[d.endpointId]?.status !== "enabled") continue;
    due.push(d);
  }
  return due.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
}

export interface AttemptOutcome {
  /** Receiver's HTTP status, or null for a network error or timeout. */
  status: number | null;
  body: string | null;
  durationMs: number;
  /** Seconds from the receiver's `Retry-After`, if any. */
  retryAfterSeconds?: number | null;
}

/** Delay before the retry that follows failed attempt number `attempt` (1-based), with jitter; null when exhausted. */
export function retryDelayMs(
  attempt: number,
  random: () => number = Math.random,
  retryAfterSeconds?: number | null,
): number | null {
  const base = RETRY_SCHEDULE_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const jittered = base * 1000 * (1 - JITTER + 2 * JITTER * random());
  const floor = retryAfterSeconds && retryAfterSeconds > 0 ? retryAfterSeconds * 1000 : 0;
  return Math.round(Math.max(jittered, floor));
}

/**
 * Log an attempt and move the delivery on: 2xx succeeds; 410 Gone disables the endpoint (its pending deliveries
 * wait until it is enabled again); anything else is retried on the schedule, then marked failed.
 */
export function recordAttempt(
  world: World,
  deliveryId: string,
  outcome: AttemptOutcome,
  now: number,
  random: () => number = Math.random,
): WebhookDelivery | null {
  const state = webhooksSlice(world);
  const delivery = state.deliveries[deliveryId];
  if (!delivery) return null;
  const ok = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
  const attempt: DeliveryAttempt = {
    attempt: delivery.attempts.length + 1,
    at: new Date(now).toISOString(),
    responseStatus: outcome.status,
    responseBody: outcome.body === null ? null : outcome.body.slice(0, 1024),
    durationMs: Math.max(0, Math.round(outcome.durationMs)),
    outcome: ok ? "succeeded" : "failed",
  };
  delivery.attempts.push(attempt);
  delivery.updatedAt = attempt.at;
  if (ok) {
    delivery.status = "succeeded";
    delivery.nextAttemptAt = null;
    return delivery;
  }
  if (outcome.status === 410) {
    delivery.status = "failed";
    delivery.nextAttemptAt = null;
    const endpoint = state.endpoints[delivery.endpointId];
    if (endpoint) {
      endpoint.status = "disabled";
      endpoint.disabledReason = "gone";
      endpoint.updatedAt = attempt.at;
    }
    return delivery;
  }
  const delay = retryDelayMs(attempt.attempt, random, outcome.retryAfterSeconds);
  if (delay === null) {
    delivery.status = "failed";
    delivery.nextAttemptAt = null;
  } else {
    delivery.nextAttemptAt = now + delay;
  }
  return delivery;
}
