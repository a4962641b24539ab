/**
 * The answering stage: the operation's section handler runs with its context; its result (or the problem it threw:
 * an answer of the operation, stored for replays like any other) becomes `exchange.response`, and the webhook events
 * it emitted are published. The token endpoint answers by OAuth's rules. A proxy swaps this stage for an upstream.
 */

import { buildContext, type LinkServices } from "../context.ts";
import { collectEvents, type ErrorReporter, type EventListeners, type PendingEvent } from "../events.ts";
import { jsonBody } from "../json-text.ts";
import { ProblemError, problemResponse } from "../problems.ts";
import { tokenResponse } from "../token-endpoint.ts";
import type { Culture, HandlerResult, MockResponse } from "../types.ts";
import type { Exchange, Stage } from "./exchange.ts";

/** What answering needs: links for the handler context, the event listeners, the error log, the token lifetime. */
export interface AnswerServices {
  links: LinkServices;
  events: EventListeners;
  onError: ErrorReporter;
  tokenTtlSeconds: number;
}

/** The answering stage over the section handlers (fills in `response`). */
export function answer(services: AnswerServices): Stage {
  return async (ex: Exchange) => {
    ex.response = ex.route?.oauth
      ? tokenResponse(
          ex.mockSession,
          ex.request,
          ex.logId,
          undefined,
          ex.rateHeaders,
          ex.now,
          services.tokenTtlSeconds,
        )
      : await invokeHandler(services, ex);
  };
}

async function invokeHandler(services: AnswerServices, ex: Exchange): Promise<MockResponse> {
  const { culture, logId, rateHeaders } = ex;
  const session = ex.mockSession;
  const op = ex.op;
  const pathname = ex.pathname;
  const handler = ex.route?.handler;
  if (!handler) {
    return problemResponse("not-implemented", culture, logId, undefined, {
      instance: pathname,
      headers: rateHeaders,
    });
  }
  const events: PendingEvent[] = [];
  const ctx = buildContext({
    links: services.links,
    session,
    operationId: op.operationId,
    method: op.method,
    url: ex.url,
    params: ex.params,
    query: ex.query,
    headers: ex.headers,
    body: ex.body,
    culture,
    auth: ex.auth,
    logId,
    publish: collectEvents(events),
  });
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
      services.onError(error, op.operationId);
      response = problemResponse("internal-error", culture, logId, undefined, {
        instance: pathname,
        headers: rateHeaders,
      });
    }
  }
  // Events of a handler that crashed are dropped; those of a deliberate problem are kept.
  if (keepEvents) for (const e of events) services.events.publish(session, e.type, e.data);
  return response;
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
    body = jsonBody(result.body);
    headers["content-type"] =
      result.contentType ?? (result.status >= 400 ? "application/problem+json" : "application/json");
  }
  if (result.headers) for (const [k, v] of Object.entries(result.headers)) headers[k.toLowerCase()] = v;
  return { status: result.status, headers, body };
}
