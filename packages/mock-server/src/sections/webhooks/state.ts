/** The webhooks slice of a world: subscriptions, messages (events) and their deliveries. Plain JSON. */
import type { components } from "@entrada/openapi/schema";

/** What the slice retains is capped (see `limits.ts`): per seed `webhooks.limits`, else these defaults. */
export interface WebhookLimits {
  /** Most subscriptions a session keeps; creating one more is a 409 (default 1 000). */
  maxSubscriptions: number;
  /**
   * Most pending deliveries per subscription (default 1 000): one more gives up the subscription's oldest pending
   * delivery (status `failed`, no further attempts), so a receiver that is down cannot pile up work.
   */
  maxPendingPerSubscription: number;
  /** Most deliveries the log keeps, newest kept (default 20 000); a pending one pushed out is given up. */
  maxDeliveries: number;
}

export const DEFAULT_WEBHOOK_LIMITS: WebhookLimits = {
  maxSubscriptions: 1_000,
  maxPendingPerSubscription: 1_000,
  maxDeliveries: 20_000,
};

/** An event kind of the contract's `webhooks` section. */
export type WebhookEventType = components["schemas"]["WebhookEventType"];

export interface SubscriptionSecret {
  secret: string;
  createdAt: string;
  /** During a rotation the previous secret keeps signing until this instant (deliveries carry two signatures). */
  expiresAt: string | null;
}

export interface WebhookSubscriptionRecord {
  id: string;
  /** Subscriptions belong to the OAuth client that created them. */
  clientId: string;
  url: string;
  description: string;
  /** Event kinds delivered, or `["*"]` for all. */
  eventTypes: components["schemas"]["EventTypeSelection"];
  enabled: boolean;
  disabledReason: "manual" | "gone" | null;
  /** Culture of the textual fields of payloads. */
  culture: string;
  /** Newest first; at most two. */
  secrets: SubscriptionSecret[];
  createdAt: string;
  updatedAt: string;
}

export interface DeliveryAttemptRecord {
  number: number;
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: null | "timeout" | "connection_refused" | "dns_error" | "tls_error" | "network_error";
  responseExcerpt: string | null;
}

export interface WebhookDeliveryRecord {
  id: string;
  subscriptionId: string;
  /** Owner (the subscription's client), so the log stays readable after the subscription is deleted. */
  clientId: string;
  /** The `webhook-id` header value, shared by retries and replays. */
  messageId: string;
  eventType: WebhookEventType;
  status: "pending" | "succeeded" | "failed";
  test: boolean;
  replayOf: string | null;
  attempts: DeliveryAttemptRecord[];
  /** Epoch ms of the next attempt on the mock clock (pending only). */
  nextAttemptAt: number | null;
  createdAt: string;
  /** The exact JSON body sent, `{type, timestamp, data}` localized for the subscription's culture. */
  body: string;
}

export interface WebhooksState {
  subscriptions: Record<string, WebhookSubscriptionRecord>;
  /** Subscription ids in creation order (deleted ones removed). */
  subscriptionOrder: string[];
  deliveries: Record<string, WebhookDeliveryRecord>;
  /** Delivery ids in creation order. */
  deliveryOrder: string[];
  /** Pending deliveries per subscription id (see `limits.ts`); optional for old snapshots. */
  pendingCount?: Record<string, number>;
  /** Per subscription, its deliveries in creation order while pending (settled ids leave lazily; see `limits.ts`). */
  pendingQueue?: Record<string, string[]>;
  /** Per subscription, the index of its queue's first live entry (a FIFO, `shared/fifo.ts`); optional for old snapshots. */
  pendingQueueHead?: Record<string, number>;
  /** The caps of this slice (from the seed); optional for old snapshots (defaults apply). */
  limits?: WebhookLimits;
}

export function initialWebhooksState(limits: WebhookLimits = DEFAULT_WEBHOOK_LIMITS): WebhooksState {
  return {
    subscriptions: {},
    subscriptionOrder: [],
    deliveries: {},
    deliveryOrder: [],
    pendingCount: {},
    limits,
  };
}

export const WEBHOOKS = "webhooks";

/** The slice of a world; created on first use so a world without the module still accepts events. */
export function webhooksSlice(world: Record<string, unknown>): WebhooksState {
  let slice = world[WEBHOOKS] as WebhooksState | undefined;
  if (!slice) {
    slice = initialWebhooksState();
    world[WEBHOOKS] = slice;
  }
  return slice;
}
