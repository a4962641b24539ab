/**
 * A session's log of the webhook events it emitted (`GET /__mock/events`): the newest `EVENT_LOG_SIZE`, oldest first,
 * in a ring. The log used to keep 1000 to 2000 events (trimmed in batches): under a cart load an event then lived for
 * up to two thousand requests, long enough to survive a scavenge and be promoted, and the log's payloads were most of
 * what the young generation promoted. The ring keeps exactly the newest 1000 (what `/__mock/events` documents).
 * Keeping each event as its JSON text instead was measured too: it promoted no less, and serializing every payload
 * made the in-process cart loop about a tenth slower.
 */
import type { WebhookEventType } from "./types.ts";

/** A webhook event as the engine publishes it (the webhooks section signs and delivers it) and the log keeps it. */
export interface EmittedEvent {
  id: string;
  /** An event kind of the contract's `webhooks` section. */
  type: WebhookEventType;
  /** RFC 3339. */
  timestamp: string;
  data: Record<string, unknown>;
  /** The mock session it happened in. */
  session: string;
}

/** The events a log keeps; the oldest goes when one more comes. */
export const EVENT_LOG_SIZE = 1000;

export class EventLog {
  /** A ring: slot `next` takes the next event, and holds the oldest kept once the ring is full. */
  readonly #ring: EmittedEvent[] = [];
  #next = 0;

  /** Keeps the event, dropping the oldest beyond `EVENT_LOG_SIZE`. */
  record(event: EmittedEvent): void {
    this.#ring[this.#next] = event;
    this.#next = (this.#next + 1) % EVENT_LOG_SIZE;
  }

  /** How many events are kept. */
  get size(): number {
    return this.#ring.length;
  }

  /** The kept events, oldest first (only those of `type` when given). */
  list(type?: string): EmittedEvent[] {
    const ring = this.#ring;
    const first = ring.length < EVENT_LOG_SIZE ? 0 : this.#next;
    const events: EmittedEvent[] = [];
    for (let i = 0; i < ring.length; i++) {
      const event = ring[(first + i) % ring.length] as EmittedEvent;
      if (type === undefined || event.type === type) events.push(event);
    }
    return events;
  }

  clear(): void {
    this.#ring.length = 0;
    this.#next = 0;
  }
}
