/**
 * The handler context, built in one place for operations (`invoke.ts`) and for `/__mock` control routes
 * (`controls.ts`): the request's parts, the session's world and clock, localization, problems, ids, signed links,
 * and `emit`, which hands events to `publish` (operations publish after the handler succeeded; controls at once).
 */
import { pickText } from "../culture.ts";
import type { MockCore } from "../engine.ts";
import { prefixedId, randomToken } from "../ids.ts";
import { ProblemError } from "../problems.ts";
import type { EmittedEvent, MockSession } from "../session.ts";
import type { AuthInfo, Culture, OperationContext, WebhookEventType } from "../types.ts";

export interface ContextInput {
  core: MockCore;
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
  const { core, session, culture, url } = input;
  const baseUrl = core.baseUrlFor(url.origin);
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
    signedUrl: (path) => core.signedLink(baseUrl, path, session.clock.now(), session.id),
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
  core: MockCore,
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
  core.dispatchEvent(event, session);
}
