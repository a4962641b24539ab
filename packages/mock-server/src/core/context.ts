/**
 * The handler context, built in one place for operations (`pipeline/9-answer.ts`) and for `/__mock` control routes
 * (`controls/index.ts`): the request's parts, the session's world and clock, and the services a handler calls —
 * each made by the module that owns it (texts by `messages.ts`, problems by `problems.ts`, ids and session tokens
 * by the session, signed links by the link signer, `emit` by the caller: operations publish after the handler
 * succeeded, controls at once). Nothing here is called back while the handler runs.
 */
import type { LinkSigner } from "./links.ts";
import { textPicker } from "./messages.ts";
import { raiseProblem } from "./problems.ts";
import type { MockSession } from "./session.ts";
import type { AuthInfo, Culture, OperationContext, WebhookEventType } from "./types.ts";

/** What a handler context needs from the engine: where the API is mounted and the signer of asset links. */
export interface LinkServices {
  /** The base path (`/api`), or "" at the root. */
  readonly mountPath: string;
  readonly signer: LinkSigner;
}

export interface ContextInput {
  links: LinkServices;
  session: MockSession;
  operationId: string;
  method: string;
  url: URL;
  params: Record<string, string>;
  query: Readonly<Record<string, string | string[]>>;
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
  const baseUrl = url.origin + links.mountPath;
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
    text: textPicker(culture),
    problem: raiseProblem,
    emit: input.publish,
    id: session.newId,
    signedUrl: links.signer.linker(baseUrl, session.clock, session.id),
    issueSessionToken: session.sessionTokenIssuer(input.auth?.clientId ?? "anonymous"),
  };
}
