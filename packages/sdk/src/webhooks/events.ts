/**
 * The envelope every Entrada webhook delivery carries (`{type, timestamp, data}`, CONVENTIONS §6).
 * Until the contract's `webhooks` section is generated this is the generic shape; it then becomes the
 * discriminated union of the 30 kinds, so `switch (event.type)` narrows `event.data`.
 */
export interface WebhookEventEnvelope<T extends string = string, D = Record<string, unknown>> {
  type: T;
  /** RFC 3339 time the event happened. */
  timestamp: string;
  data: D;
}

/** Any Entrada webhook event. */
export type WebhookEvent = WebhookEventEnvelope;

/** The `type` strings of all event kinds. */
export type WebhookEventType = WebhookEvent["type"];

/** The event of one kind, e.g. `WebhookEventOf<"ticket.issued">`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
