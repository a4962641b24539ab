/**
 * Webhook events on their way out. A handler's `emit` collects into a list (`collectEvents`); once it answered, the
 * answering stage publishes them (`EventListeners.publish`): each is recorded in the session's event log and handed
 * to the listeners — the webhook delivery queue among them.
 */
import { prefixedId } from "./ids.ts";
import { isoTimestamp } from "./iso-time.ts";
import type { EmittedEvent, MockSession } from "./session.ts";
import type { WebhookEventType } from "./types.ts";

/** Receives each published event. */
export type EventListener = (event: EmittedEvent, session: MockSession) => void;

/** Where an unexpected error goes (`MockCoreOptions.onError`; the console by default). */
export type ErrorReporter = (error: unknown, where: string) => void;

/** An event a handler emitted, before it is published. */
export interface PendingEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
}

/** A handler context's `emit`: appends to `into`. */
export function collectEvents(
  into: PendingEvent[],
): (type: WebhookEventType, data: Record<string, unknown>) => void {
  return (type, data) => {
    into.push({ type, data });
  };
}

/** The engine's event listeners. A listener that throws is reported; the others still get the event. */
export class EventListeners {
  private readonly listeners = new Set<EventListener>();
  private readonly onError: ErrorReporter;

  constructor(onError: ErrorReporter) {
    this.onError = onError;
  }

  /** Subscribes; returns an unsubscribe function. */
  add(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Hands a recorded event to every listener. */
  dispatch(event: EmittedEvent, session: MockSession): void {
    for (const listener of this.listeners) {
      try {
        listener(event, session);
      } catch (error) {
        this.onError(error, `event:${event.type}`);
      }
    }
  }

  /** Records an event in the session's log and hands it to the listeners. */
  publish(session: MockSession, type: WebhookEventType, data: Record<string, unknown>): void {
    const now = session.clock.now();
    const event: EmittedEvent = {
      id: prefixedId("msg", now),
      type,
      timestamp: isoTimestamp(now),
      data,
      session: session.id,
    };
    session.recordEvent(event);
    this.dispatch(event, session);
  }
}
