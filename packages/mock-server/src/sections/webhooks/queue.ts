import { CULTURES, DEFAULT_CULTURE, pickText } from "../../core/culture.ts";
import type { Clock, Culture, LocalizedText, World } from "../../core/types.ts";
import { admitDelivery, settle } from "./limits.ts";
import {
  type DeliveryAttemptRecord,
  type WebhookDeliveryRecord,
  type WebhookEventType,
  type WebhookSubscriptionRecord,
  webhooksSlice,
} from "./state.ts";

/**
 * Delays before retry n (after attempt n failed): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 24 h, 24 h — ten
 * attempts over about 3 days 4 h, each delay with ±10 % jitter and stretched to a longer `Retry-After`.
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [
  5, 300, 1_800, 7_200, 18_000, 36_000, 36_000, 86_400, 86_400,
];
export const MAX_ATTEMPTS = RETRY_SCHEDULE_SECONDS.length + 1;
export const JITTER = 0.1;

export interface WebhookEventInput {
  type: WebhookEventType;
  /** Event data; values built with `localizedValue()` are resolved per subscription culture. */
  data: Record<string, unknown>;
  /** Message id (`msg_...`, the `webhook-id`); the engine passes its `EmittedEvent.id`. */
  id?: string;
  /** RFC 3339 time of the event; default: the clock's now. */
  timestamp?: string;
}

export type IdFactory = (prefix: string) => string;

const CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/** A ULID-shaped id (time-ordered) for callers without the engine's `ctx.id`. */
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

const LOCALIZED = "$localized";

/**
 * Mark a text in event data to be written in each subscription's culture (e.g. `reasonText`, cart item names).
 * @example ctx.emit("entrance.denied", { reasonText: localizedValue(texts), ... })
 */
export function localizedValue(text: LocalizedText): { [LOCALIZED]: LocalizedText } {
  return { [LOCALIZED]: text };
}

/** Replace `localizedValue` markers by the culture's text (deep). */
export function resolveLocalized(value: unknown, culture: Culture): unknown {
  if (Array.isArray(value)) return value.map((v) => resolveLocalized(v, culture));
  if (value !== null && typeof value === "object") {
    const obj = value as Record<string, unknown>;
    if (LOCALIZED in obj && Object.keys(obj).length === 1)
      return pickText(obj[LOCALIZED] as LocalizedText, culture);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = resolveLocalized(v, culture);
    return out;
  }
  return value;
}

function asCulture(tag: string): Culture {
  return (
    CULTURES.find((c) => c === tag) ??
    CULTURES.find((c) => c.slice(0, 2) === tag.slice(0, 2)) ??
    DEFAULT_CULTURE
  );
}

export function subscribes(subscription: WebhookSubscriptionRecord, type: WebhookEventType): boolean {
  return subscription.eventTypes.some((t) => t === "*" || t === type);
}

/** Build the exact body for a subscription: `{type, timestamp, data}` in its culture. */
export function bodyFor(
  subscription: Pick<WebhookSubscriptionRecord, "culture">,
  event: { type: WebhookEventType; timestamp: string; data: unknown },
): string {
  return JSON.stringify({
    type: event.type,
    timestamp: event.timestamp,
    data: resolveLocalized(event.data, asCulture(subscription.culture)),
  });
}

export function createDelivery(
  world: World,
  subscription: WebhookSubscriptionRecord,
  message: { id: string; type: WebhookEventType; body: string },
  now: number,
  id: IdFactory,
  extra: { test?: boolean; replayOf?: string | null } = {},
): WebhookDeliveryRecord {
  const state = webhooksSlice(world);
  const delivery: WebhookDeliveryRecord = {
    id: id("dlv"),
    subscriptionId: subscription.id,
    clientId: subscription.clientId,
    messageId: message.id,
    eventType: message.type,
    status: "pending",
    test: extra.test ?? false,
    replayOf: extra.replayOf ?? null,
    attempts: [],
    nextAttemptAt: now,
    createdAt: new Date(now).toISOString(),
    body: message.body,
  };
  state.deliveries[delivery.id] = delivery;
  state.deliveryOrder.push(delivery.id);
  admitDelivery(state, delivery);
  return delivery;
}

/**
 * Record an event and queue one delivery per enabled subscription to its kind. The engine calls this for every
 * `ctx.emit(type, data)` (after the triggering request); delivery is asynchronous (see `deliverDue`).
 * @returns the message id (the `webhook-id` header) and the ids of the queued deliveries.
 * @example core.onEvent((event, session) => enqueueWebhookEvent(session.world, event, session.clock))
 */
export function enqueueWebhookEvent(
  world: World,
  event: WebhookEventInput,
  clock: Clock,
  id: IdFactory = (prefix) => ulid(prefix, clock.now()),
): { messageId: string; deliveryIds: string[] } {
  const state = webhooksSlice(world);
  const now = clock.now();
  const timestamp = event.timestamp ?? new Date(now).toISOString();
  const messageId = event.id?.startsWith("msg_") ? event.id : id("msg");
  const deliveryIds: string[] = [];
  for (const sid of state.subscriptionOrder) {
    const subscription = state.subscriptions[sid];
    if (!subscription?.enabled || !subscribes(subscription, event.type)) continue;
    const body = bodyFor(subscription, { type: event.type, timestamp, data: event.data });
    deliveryIds.push(
      createDelivery(world, subscription, { id: messageId, type: event.type, body }, now, id).id,
    );
  }
  return { messageId, deliveryIds };
}

/** Pending deliveries due at `now` to enabled subscriptions, oldest due first. */
export function dueDeliveries(world: World, now: number): WebhookDeliveryRecord[] {
  const state = webhooksSlice(world);
  const due: WebhookDeliveryRecord[] = [];
  for (const did of state.deliveryOrder) {
    const d = state.deliveries[did];
    if (d?.status !== "pending" || d.nextAttemptAt === null || d.nextAttemptAt > now) continue;
    const subscription = state.subscriptions[d.subscriptionId];
    // Test deliveries go out even while the subscription is disabled.
    if (!subscription || (!subscription.enabled && !d.test)) continue;
    due.push(d);
  }
  return due.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
}

export interface AttemptOutcome {
  /** Receiver's HTTP status, or null when no response arrived. */
  statusCode: number | null;
  error: DeliveryAttemptRecord["error"];
  responseBody: string | null;
  durationMs: number;
  /** Seconds from the receiver's `Retry-After`, if any. */
  retryAfterSeconds?: number | null;
}

/** Delay before the retry after failed attempt `attempt` (1-based), jittered; null when the schedule is exhausted. */
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

/** Fail every pending delivery of a subscription (on 410 and on deletion). */
export function failPending(world: World, subscriptionId: string): void {
  const state = webhooksSlice(world);
  for (const did of state.deliveryOrder) {
    const d = state.deliveries[did];
    if (d && d.subscriptionId === subscriptionId && d.status === "pending") settle(state, d, "failed");
  }
  if (state.pendingQueue) delete state.pendingQueue[subscriptionId];
  if (state.pendingQueueHead) delete state.pendingQueueHead[subscriptionId];
}

/**
 * Log an attempt and move the delivery on: 2xx succeeds; `410 Gone` disables the subscription and fails its
 * pending deliveries; anything else is retried on the schedule until it is exhausted.
 */
export function recordAttempt(
  world: World,
  deliveryId: string,
  outcome: AttemptOutcome,
  now: number,
  random: () => number = Math.random,
): WebhookDeliveryRecord | null {
  const state = webhooksSlice(world);
  const delivery = state.deliveries[deliveryId];
  if (delivery?.status !== "pending") return delivery ?? null;
  const code = outcome.statusCode;
  const ok = code !== null && code >= 200 && code < 300;
  const attempt: DeliveryAttemptRecord = {
    number: delivery.attempts.length + 1,
    attemptedAt: new Date(now).toISOString(),
    statusCode: code,
    durationMs: Math.max(0, Math.round(outcome.durationMs)),
    error: code === null ? (outcome.error ?? "network_error") : null,
    responseExcerpt: outcome.responseBody === null ? null : outcome.responseBody.slice(0, 1024),
  };
  delivery.attempts.push(attempt);
  if (ok) {
    settle(state, delivery, "succeeded");
    return delivery;
  }
  if (code === 410 && !delivery.test) {
    const subscription = state.subscriptions[delivery.subscriptionId];
    if (subscription) {
      subscription.enabled = false;
      subscription.disabledReason = "gone";
      subscription.updatedAt = attempt.attemptedAt;
    }
    failPending(world, delivery.subscriptionId);
    settle(state, delivery, "failed");
    return delivery;
  }
  const delay = retryDelayMs(attempt.number, random, outcome.retryAfterSeconds);
  if (delay === null) {
    settle(state, delivery, "failed");
  } else {
    delivery.nextAttemptAt = now + delay;
  }
  return delivery;
}
