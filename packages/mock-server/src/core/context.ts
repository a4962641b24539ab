/**
 * The handler context, built in one place for operations (`pipeline/answer.ts`) and for `/__mock` control routes
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
  /** The request's origin (`ctx.baseUrl` is made of it). */
  origin: string;
  /** The request URL, made when a handler reads `ctx.url` (most never do). */
  url: () => URL;
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
  return new HandlerContext(input);
}

/**
 * A class, not an object literal: `url` is a getter (the URL is made when a handler reads it), and on the prototype
 * one getter serves every context, where a literal would make one per context.
 */
class HandlerContext implements OperationContext {
  readonly operationId: string;
  readonly method: string;
  readonly params: Record<string, string>;
  readonly query: Readonly<Record<string, string | string[]>>;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly culture: Culture;
  readonly auth: AuthInfo | null;
  readonly world: OperationContext["world"];
  readonly clock: OperationContext["clock"];
  readonly baseUrl: string;
  readonly mockSession: string;
  readonly logId: string;
  readonly text: OperationContext["text"];
  readonly problem: OperationContext["problem"];
  readonly emit: OperationContext["emit"];
  readonly id: OperationContext["id"];
  readonly signedUrl: OperationContext["signedUrl"];
  readonly issueSessionToken: NonNullable<OperationContext["issueSessionToken"]>;
  readonly #url: () => URL;

  constructor(input: ContextInput) {
    const { links, session, culture } = input;
    this.operationId = input.operationId;
    this.method = input.method;
    this.#url = input.url;
    this.params = input.params;
    this.query = input.query;
    this.headers = input.headers;
    this.body = input.body;
    this.culture = culture;
    this.auth = input.auth;
    this.world = session.world;
    this.clock = session.clock;
    this.baseUrl = input.origin + links.mountPath;
    this.mockSession = session.id;
    this.logId = input.logId;
    this.text = textPicker(culture);
    this.problem = raiseProblem;
    this.emit = input.publish;
    this.id = session.newId;
    this.signedUrl = links.signer.linker(this.baseUrl, session.clock, session.id);
    this.issueSessionToken = session.sessionTokenIssuer(input.auth?.clientId ?? "anonymous");
  }

  /** The request URL (made on first read). */
  get url(): URL {
    return this.#url();
  }
}
