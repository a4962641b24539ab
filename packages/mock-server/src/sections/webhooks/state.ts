/** The webhooks slice of a world: endpoints (subscriptions), messages (events) and their deliveries. Plain JSON. */

export interface EndpointSecret {
  secret: string;
  createdAt: string;
  /** During a rotation the previous secret stays valid until this instant (deliveries carry two signatures). */
  expiresAt: string | null;
}

export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  /** Event types delivered to this endpoint; empty means every type. */
  enabledEvents: string[];
  status: "enabled" | "disabled";
  /** Why the endpoint was disabled: by the integrator or because the receiver answered 410 Gone. */
  disabledReason: "manual" | "gone" | null;
  /** Newest first. */
  secrets: EndpointSecret[];
  createdAt: string;
  updatedAt: string;
}

export interface WebhookMessage {
  /** The `webhook-id` header value, stable across retries and replays. */
  id: string;
  type: string;
  timestamp: string;
  /** The exact JSON body sent: `{type, timestamp, data}`. */
  payload: string;
}

export interface DeliveryAttempt {
  attempt: number;
  at: string;
  /** HTTP status of the receiver, or null when the request failed (network error, timeout). */
  responseStatus: number | null;
  /** First 1 KiB of the response body, or the network error message. */
  responseBody: string | null;
  durationMs: number;
  outcome: "succeeded" | "failed";
}

export interface WebhookDelivery {
  id: string;
  endpointId: string;
  messageId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed";
  attempts: DeliveryAttempt[];
  /** Epoch ms of the next attempt (pending only), on the mock clock. */
  nextAttemptAt: number | null;
  /** Set when this delivery was created by a replay of another one. */
  replayOf: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WebhooksState {
  endpoints: Record<string, WebhookEndpoint>;
  /** Endpoint ids in creation order. */
  endpointOrder: string[];
  messages: Record<string, WebhookMessage>;
  deliveries: Record<string, WebhookDelivery>;
  /** Delivery ids in creation order. */
  deliveryOrder: string[];
  /** Overlap during which the previous secret stays valid after a rotation, in seconds. */
  rotationOverlapSeconds: number;
}

export function initialWebhooksState(): WebhooksState {
  return {
    endpoints: {},
    endpointOrder: [],
    messages: {},
    deliveries: {},
    deliveryOrder: [],
    rotationOverlapSeconds: 86_400,
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
