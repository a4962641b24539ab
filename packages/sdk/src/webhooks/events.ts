import type { webhooks } from "../generated/schema.ts";

/** The envelope every Entrada webhook delivery carries (`{type, timestamp, data}`, CONVENTIONS §6). */
export interface WebhookEventEnvelope<T extends string = string, D = Record<string, unknown>> {
  type: T;
  /** RFC 3339 time the event happened. */
  timestamp: string;
  data: D;
}

type Payload<W> = W extends { post: { requestBody: { content: { "application/json": infer P } } } }
  ? P
  : W extends { post: { requestBody?: { content: { "application/json": infer P } } } }
    ? P
    : never;
type ContractEvent = { [K in keyof webhooks]: Payload<webhooks[K]> }[keyof webhooks];

/**
 * Any Entrada webhook event: the discriminated union of the 30 kinds of the contract's `webhooks` section, so
 * `switch (event.type)` narrows `event.data`. (Falls back to the generic envelope while the contract has none.)
 */
export type WebhookEvent = [ContractEvent] extends [never] ? WebhookEventEnvelope : ContractEvent;

/** The `type` strings of all event kinds. */
export type WebhookEventType = WebhookEvent["type"];

/** The event of one kind, e.g. `WebhookEventOf<"ticket.issued">`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
