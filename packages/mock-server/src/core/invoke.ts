/**
 * Handler invocation: builds the operation context, runs the section's handler, renders its result (or the problem
 * it threw), validates the response in tests, then publishes the webhook events it emitted.
 */
import { cors } from "./cors.ts";
import { pickText } from "./culture.ts";
import type { OperationSpec } from "./document.ts";
import type { MockCore } from "./engine.ts";
import { prefixedId, randomToken } from "./ids.ts";
import { problemResponse } from "./problem-response.ts";
import { ProblemError } from "./problems.ts";
import { queryRecord } from "./request-target.ts";
import { checkResponse } from "./response-check.ts";
import type { EmittedEvent, MockSession } from "./session.ts";
import type {
  AuthInfo,
  Culture,
  HandlerResult,
  MockResponse,
  OperationContext,
  OperationHandler,
} from "./types.ts";

/** What the pipeline knows about a request once it reaches the handler. */
export interface HandlerInput {
  session: MockSession;
  url: URL;
  params: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  culture: Culture;
  auth: AuthInfo | null;
  logId: string;
  origin: string | undefined;
  pathname: string;
  rateHeaders: Record<string, string>;
}

export async function invokeHandler(
  core: MockCore,
  op: OperationSpec,
  handler: OperationHandler | undefined,
  input: HandlerInput,
): Promise<MockResponse> {
  const { session, culture, logId, origin, pathname, rateHeaders } = input;
  if (!handler) {
    return problemResponse("not-implemented", culture, logId, origin, {
      instance: pathname,
      headers: rateHeaders,
    });
  }
  const events: Array<{ type: string; data: Record<string, unknown> }> = [];
  const query = queryRecord(input.url.searchParams);
  const baseUrl = core.baseUrlFor(input.url.origin);
  const ctx: OperationContext = {
    operationId: op.operationId,
    method: op.method,
    url: input.url,
    params: input.params,
    query,
    headers: input.headers,
    body: input.body,
    culture,
    auth: input.auth,
    world: session.world,
    clock: session.clock,
    baseUrl,
    mockSession: session.id,
    logId,
    text: (value) => pickText(value, culture),
    problem: (slug, detail, extensions) => {
      throw new ProblemError(slug, detail, extensions);
    },
    emit: (type, data) => {
      events.push({ type, data });
    },
    id: (prefix) => prefixedId(prefix, session.clock.now()),
    signedUrl: (path) => core.signedLink(baseUrl, path, session.clock.now(), session.id),
    issueSessionToken: ({ sessionId, ttlSeconds, allowedOrigins }) => {
      const token = `${sessionId}.${randomToken(32)}`;
      const expiresAt = session.clock.now() + ttlSeconds * 1000;
      const creator = input.auth?.clientId ?? "anonymous";
      session.tokens.set(token, {
        kind: "session",
        clientId: creator,
        scopes: ["Shop"],
        sessionId,
        expiresAt,
        allowedOrigins,
      });
      return { token, expiresAt };
    },
  };
  let response: MockResponse;
  let keepEvents = true;
  try {
    const result = await handler(ctx);
    response = renderResult(result, culture, logId, rateHeaders);
  } catch (error) {
    if (error instanceof ProblemError) {
      response = problemResponse(error.slug, culture, logId, undefined, {
        instance: pathname,
        headers: { ...rateHeaders, ...error.headers },
        detail: error.detail,
        extensions: error.extensions,
        status: error.status,
      });
    } else {
      keepEvents = false;
      (core.options.onError ?? ((e: unknown) => console.error(e)))(error, op.operationId);
      response = problemResponse("internal-error", culture, logId, undefined, {
        instance: pathname,
        headers: rateHeaders,
      });
    }
  }
  if (core.options.validateResponses) checkResponse(core, op, response, culture, logId);
  if (keepEvents && events.length > 0) {
    for (const e of events) {
      const event: EmittedEvent = {
        id: prefixedId("msg", session.clock.now()),
        type: e.type,
        timestamp: new Date(session.clock.now()).toISOString(),
        data: e.data,
        session: session.id,
      };
      session.recordEvent(event);
      core.dispatchEvent(event, session);
    }
  }
  return cors(response, origin);
}

/** A handler's result as a response: JSON unless it returns raw bytes, localized, with the rate headers. */
function renderResult(
  result: HandlerResult,
  culture: Culture,
  logId: string,
  rateHeaders: Record<string, string>,
): MockResponse {
  const headers: Record<string, string> = {
    "x-log-id": logId,
    "content-language": culture,
    vary: "Accept-Language",
    ...rateHeaders,
  };
  let body: string | Uint8Array | null = null;
  if (result.raw !== undefined) {
    body = result.raw;
    headers["content-type"] = result.contentType ?? "application/octet-stream";
  } else if (result.body !== undefined && result.status !== 204 && result.status !== 304) {
    body = JSON.stringify(result.body);
    headers["content-type"] =
      result.contentType ?? (result.status >= 400 ? "application/problem+json" : "application/json");
  }
  if (result.headers) for (const [k, v] of Object.entries(result.headers)) headers[k.toLowerCase()] = v;
  return { status: result.status, headers, body };
}
