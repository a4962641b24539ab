/**
 * What the webhooks slice retains is capped as well as timed (bounded by design): subscriptions per session, pending
 * deliveries per subscription (the backlog a receiver that is down builds up), and the delivery log as a whole.
 * Configurable per seed (`webhooks.limits`); the defaults keep a session's webhooks under ≈ 40 MB.
 */

import { positiveInt } from "../../core/seed-values.ts";
import { compact } from "../shared/fifo.ts";
import {
  DEFAULT_WEBHOOK_LIMITS,
  type WebhookDeliveryRecord,
  type WebhookLimits,
  type WebhooksState,
} from "./state.ts";

/** The slice's limits (snapshots from before they existed get the defaults). */
export function limitsOf(state: WebhooksState): WebhookLimits {
  return state.limits ?? DEFAULT_WEBHOOK_LIMITS;
}

/** Limits from `seed.webhooks.limits`: positive integers override the defaults. */
export function seedLimits(seed: unknown): WebhookLimits {
  const own = (seed as { limits?: Partial<Record<keyof WebhookLimits, unknown>> } | undefined)?.limits ?? {};
  const pick = (key: keyof WebhookLimits): number => {
    const value = own[key];
    return positiveInt(value, DEFAULT_WEBHOOK_LIMITS[key]);
  };
  return {
    maxSubscriptions: pick("maxSubscriptions"),
    maxPendingPerSubscription: pick("maxPendingPerSubscription"),
    maxDeliveries: pick("maxDeliveries"),
  };
}

/**
 * Pending deliveries that are due, per subscription in creation order, at most `perSubscription` each (a worker
 * sends no more than that at once to one receiver anyway), skipping subscriptions `skip` names. Walks only the
 * pending queues, not the whole log.
 */
export function duePerSubscription(
  state: WebhooksState,
  now: number,
  perSubscription: number,
  skip: (subscriptionId: string) => boolean,
): WebhookDeliveryRecord[] {
  const due: WebhookDeliveryRecord[] = [];
  for (const [sid, queue] of Object.entries(state.pendingQueue ?? {})) {
    if (skip(sid)) continue;
    const subscription = state.subscriptions[sid];
    let taken = 0;
    for (let i = state.pendingQueueHead?.[sid] ?? 0; i < queue.length; i++) {
      const d = state.deliveries[queue[i] as string];
      if (d?.status !== "pending" || d.nextAttemptAt === null || d.nextAttemptAt > now) continue;
      // Test deliveries go out even while the subscription is disabled.
      if (!subscription || (!subscription.enabled && !d.test)) continue;
      due.push(d);
      if (++taken >= perSubscription) break;
    }
  }
  return due.sort((a, b) => (a.nextAttemptAt ?? 0) - (b.nextAttemptAt ?? 0));
}

/** Moves a delivery out of `pending` (succeeded or failed), keeping the per-subscription count in step. */
export function settle(
  state: WebhooksState,
  delivery: WebhookDeliveryRecord,
  status: "succeeded" | "failed",
): void {
  if (delivery.status === "pending") {
    state.pendingCount ??= {};
    const counts = state.pendingCount;
    counts[delivery.subscriptionId] = Math.max(0, (counts[delivery.subscriptionId] ?? 1) - 1);
  }
  delivery.status = status;
  delivery.nextAttemptAt = null;
}

/** Applies the caps after `delivery` (pending) joined the log. O(1) amortized. */
export function admitDelivery(state: WebhooksState, delivery: WebhookDeliveryRecord): void {
  const limits = limitsOf(state);
  state.pendingCount ??= {};
  state.pendingQueue ??= {};
  state.pendingQueueHead ??= {};
  const counts = state.pendingCount;
  const queues = state.pendingQueue;
  const sid = delivery.subscriptionId;
  counts[sid] = (counts[sid] ?? 0) + 1;
  queues[sid] ??= [];
  let queue = queues[sid];
  let head = state.pendingQueueHead[sid] ?? 0;
  queue.push(delivery.id);
  if ((counts[sid] ?? 0) > limits.maxPendingPerSubscription) {
    // The subscription's oldest pending delivery: the front of its queue, past ids that settled meanwhile.
    while (head < queue.length) {
      const d = state.deliveries[queue[head++] as string];
      if (d && d !== delivery && d.status === "pending") {
        settle(state, d, "failed");
        break;
      }
    }
  }
  // Settled ids leave the queue lazily; when they outnumber the pending ones, the queue is rebuilt (amortized O(1)).
  if (queue.length - head > 2 * limits.maxPendingPerSubscription + 16) {
    queue = queue.slice(head).filter((id) => state.deliveries[id]?.status === "pending");
    head = 0;
  } else [queue, head] = compact(queue, head);
  queues[sid] = queue;
  state.pendingQueueHead[sid] = head;
  // Trim in batches (at most 1/16 over the cap), so the log is not shifted on every delivery.
  const slack = Math.max(16, limits.maxDeliveries >> 4);
  if (state.deliveryOrder.length > limits.maxDeliveries + slack) {
    const drop = state.deliveryOrder.splice(0, state.deliveryOrder.length - limits.maxDeliveries);
    for (const id of drop) {
      const d = state.deliveries[id];
      if (d) settle(state, d, "failed");
      delete state.deliveries[id];
    }
  }
}
