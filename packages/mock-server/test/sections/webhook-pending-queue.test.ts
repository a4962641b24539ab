/**
 * A subscription's pending deliveries are a FIFO (`sections/shared/fifo.ts`): beyond `maxPendingPerSubscription` the
 * oldest pending one fails, taken from the front by moving the queue's head (no `Array.shift`); the consumed front is
 * cut off in batches, and the worker reads only the live part.
 */
import { describe, expect, it } from "vitest";
import { COMPACT_AFTER } from "../../src/sections/shared/fifo.ts";
import { admitDelivery, duePerSubscription, settle } from "../../src/sections/webhooks/limits.ts";
import {
  initialWebhooksState,
  type WebhookDeliveryRecord,
  type WebhookSubscriptionRecord,
  type WebhooksState,
} from "../../src/sections/webhooks/state.ts";

function deliver(state: WebhooksState, n: number, subscriptionId = "whs_1"): WebhookDeliveryRecord {
  const delivery: WebhookDeliveryRecord = {
    id: `whd_${n}`,
    subscriptionId,
    clientId: "c",
    messageId: `msg_${n}`,
    eventType: "cart.created",
    status: "pending",
    test: false,
    replayOf: null,
    attempts: [],
    nextAttemptAt: 0,
    createdAt: new Date(0).toISOString(),
    body: "{}",
  };
  state.deliveries[delivery.id] = delivery;
  state.deliveryOrder.push(delivery.id);
  admitDelivery(state, delivery);
  return delivery;
}

const pending = (state: WebhooksState) =>
  state.deliveryOrder.filter((id) => state.deliveries[id]?.status === "pending");

describe("a subscription's pending queue", () => {
  it("fails the oldest pending delivery beyond the cap, moving the head instead of shifting", () => {
    const state = initialWebhooksState({
      maxSubscriptions: 1,
      maxPendingPerSubscription: 3,
      maxDeliveries: 10_000,
    });
    for (let n = 1; n <= 5; n++) deliver(state, n);
    expect(pending(state)).toEqual(["whd_3", "whd_4", "whd_5"]);
    expect(state.deliveries.whd_1?.status).toBe("failed");
    expect(state.deliveries.whd_2?.status).toBe("failed");
    // The consumed front stays until compaction; the head marks the first live entry.
    expect(state.pendingQueue?.whs_1).toEqual(["whd_1", "whd_2", "whd_3", "whd_4", "whd_5"]);
    expect(state.pendingQueueHead?.whs_1).toBe(2);
    // A delivery that settled meanwhile is skipped: the next oldest pending one fails.
    settle(state, state.deliveries.whd_3 as WebhookDeliveryRecord, "succeeded");
    deliver(state, 6);
    deliver(state, 7);
    expect(pending(state)).toEqual(["whd_5", "whd_6", "whd_7"]);
    expect(state.deliveries.whd_4?.status).toBe("failed");
    // The worker reads only the live part of the queue (of an enabled subscription).
    state.subscriptions.whs_1 = { id: "whs_1", enabled: true } as unknown as WebhookSubscriptionRecord;
    const due = duePerSubscription(state, 1, 10, () => false).map((d) => d.id);
    expect(due).toEqual(["whd_5", "whd_6", "whd_7"]);
  });

  it("stays bounded under a long backlog: the consumed front is cut off in batches", () => {
    const max = 1_000;
    const state = initialWebhooksState({
      maxSubscriptions: 1,
      maxPendingPerSubscription: max,
      maxDeliveries: 100_000,
    });
    for (let n = 1; n <= 20_000; n++) deliver(state, n);
    const queue = state.pendingQueue?.whs_1 ?? [];
    const head = state.pendingQueueHead?.whs_1 ?? 0;
    expect(queue.length).toBeLessThanOrEqual(max + 2 * COMPACT_AFTER + 1);
    expect(queue.slice(head)).toEqual(Array.from({ length: max }, (_, i) => `whd_${19_001 + i}`));
    expect(pending(state)).toHaveLength(max);
  });
});
