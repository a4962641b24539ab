/**
 * The handler context, built in one place for operations (`pipeline/9-answer.ts`) and for `/__mock` control routes
 * (`controls.ts`): the request's parts, the session's world and clock, localization, problems, ids, signed links,
 * and `emit`, which hands events to `publish` (operations publish after the handler succeeded; controls at once).
 */
import { pickText } from "./culture.ts";
import { prefixedId, randomToken } from "./ids.ts";
import { ProblemError } from "./problems.ts";
import type { EmittedEvent, MockSession } from "./session.ts";
import type { AuthInfo, Culture, OperationContext, WebhookEventType } from "./types.ts";

/** What a handler context needs from the engine: where the API is served and how asset links are signed. */
export interface LinkServices {
  /** Where the API is served for a request from `origin`: the origin plus the base path. */
  baseUrlFor(origin: string): string;
  /** A signed link to an asset `path` below `baseUrl`, valid for 24 h from `nowMs`. */
  signedLink(baseUrl: string, path: string, nowMs: number, session?: string): string;
}

/** Hands an emitted event to the engine's listeners (the webhook delivery worker among them). */
export type EventSink = (event: EmittedEvent, session: MockSession) => void;

export interface ContextInput {
  links: LinkServices;
  session: MockSession;
  operationId: string;
  method: string;
  url: URL;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  headers: Record<string, string>;
  body: unknown;
  culture: Culture;
  auth: AuthInfo | null;
  logId: string;
  /** Receives each emitted event. */
  publish(type: WebhookEventType, data: Record<string, unknown>): void;
}

export function buildContext(input: ContextInput): OperationContext {
  const { links, session, culture, url } = input;
  const baseUrl = links.baseUrlFor(url.origin);
  return {
    operationId: input.operationId,
    method: input.method,
    url,
    params: input.params,
    query: input.query,
    headers: input.headers,
    body: input.body,
    culture,
    auth: input.auth,
    world: session.world,
    clock: session.clock,
    baseUrl,
    mockSession: session.id,
    logId: input.logId,
    text: (value) => pickText(value, culture),
    problem: (slug, detail, extensions) => {
      throw new ProblemError(slug, detail, extensions);
    },
    emit: input.publish,
    id: (prefix) => prefixedId(prefix, session.clock.now()),
    signedUrl: (path) => links.signedLink(baseUrl, path, session.clock.now(), session.id),
    issueSessionToken: ({ sessionId, ttlSeconds, allowedOrigins }) => {
      const token = `${sessionId}.${randomToken(32)}`;
      const expiresAt = session.clock.now() + ttlSeconds * 1000;
      session.addToken(token, {
        kind: "session",
        clientId: input.auth?.clientId ?? "anonymous",
        scopes: ["Shop"],
        sessionId,
        expiresAt,
        allowedOrigins,
      });
      return { token, expiresAt };
    },
  };
}

/** Records an event in the session's log and hands it to the engine's listeners (webhook delivery among them). */
export function publishEvent(
  sink: EventSink,
  session: MockSession,
  type: WebhookEventType,
  data: Record<string, unknown>,
): void {
  const event: EmittedEvent = {
    id: prefixedId("msg", session.clock.now()),
    type,
    timestamp: new Date(session.clock.now()).toISOString(),
    data,
    session: session.id,
  };
  session.recordEvent(event);
  sink(event, session);
}
