/**
 * The answering stage: the operation's section handler runs with its context; its result (or the problem it threw:
 * an answer of the operation, stored for replays like any other) becomes `exchange.response`, and the webhook events
 * it emitted are published. The token endpoint answers by OAuth's rules. A proxy swaps this stage for an upstream.
 */

import { buildContext, type LinkServices } from "../context.ts";
import { collectEvents, type ErrorReporter, type EventListeners, type PendingEvent } from "../events.ts";
import { JsonText, jsonBody, KeptTextResponse } from "../json-text.ts";
import { ProblemError, stageProblem } from "../problems.ts";
import { tokenResponse } from "../token-endpoint.ts";
import type { Culture, HandlerResult, MockResponse } from "../types.ts";
import { type Exchange, problemAnswer, type Stage } from "./exchange.ts";

/** What answering needs: links for the handler context, the event listeners, the error log, the token lifetime. */
export interface AnswerServices {
  links: LinkServices;
  events: EventListeners;
  onError: ErrorReporter;
  tokenTtlSeconds: number;
}

/**
 * The answering stage over the section handlers (fills in `response`); a promise only while a handler that awaits
 * is at work.
 */
export function answer(services: AnswerServices): Stage {
  return (ex: Exchange) => {
    if (ex.route?.oauth) {
      ex.response = tokenResponse(
        ex.mockSession,
        ex.request,
        ex.logId,
        undefined,
        ex.rateHeaders,
        ex.now,
        services.tokenTtlSeconds,
      );
      return;
    }
    return invokeHandler(services, ex);
  };
}

/** Runs the operation's handler with its context and sets `ex.response` from what it answers. */
function invokeHandler(services: AnswerServices, ex: Exchange): Promise<void> | undefined {
  const handler = ex.route?.handler;
  if (!handler) {
    ex.response = problemAnswer(ex, stageProblem("not-implemented"));
    return;
  }
  const events: PendingEvent[] = [];
  const op = ex.op;
  const ctx = buildContext({
    links: services.links,
    session: ex.mockSession,
    operationId: op.operationId,
    method: op.method,
    origin: ex.target.origin,
    url: () => ex.url,
    params: ex.params,
    query: ex.query,
    headers: ex.headers,
    body: ex.body,
    culture: ex.culture,
    auth: ex.auth,
    logId: ex.logId,
    publish: collectEvents(events),
  });
  let result: HandlerResult | Promise<HandlerResult>;
  try {
    result = handler(ctx);
  } catch (error) {
    settle(services, ex, events, { error });
    return;
  }
  if (isPromiseLike(result)) {
    return Promise.resolve(result).then(
      (value) => settle(services, ex, events, { value }),
      (error: unknown) => settle(services, ex, events, { error }),
    );
  }
  settle(services, ex, events, { value: result });
}

/**
 * The handler's outcome as `ex.response`: its result rendered, or the problem it threw (an answer of the operation,
 * stored for replays like any other), or a 500 for a crash. Events of a handler that crashed are dropped; those of
 * a deliberate problem are kept and published.
 */
function settle(
  services: AnswerServices,
  ex: Exchange,
  events: PendingEvent[],
  outcome: { value: HandlerResult } | { error: unknown },
): void {
  let keepEvents = true;
  try {
    if ("error" in outcome) throw outcome.error;
    ex.response = renderResult(outcome.value, ex.culture, ex.logId, ex.rateHeaders);
  } catch (error) {
    keepEvents = error instanceof ProblemError;
    ex.response = failureResponse(services, ex, error);
  }
  if (keepEvents) for (const e of events) services.events.publish(ex.mockSession, e.type, e.data);
}

/** A problem the handler threw, as the operation's answer; anything else is a logged 500. */
function failureResponse(services: AnswerServices, ex: Exchange, error: unknown): MockResponse {
  if (error instanceof ProblemError) return problemAnswer(ex, error);
  services.onError(error, ex.op.operationId);
  return problemAnswer(ex, stageProblem("internal-error"));
}

function isPromiseLike(value: unknown): value is PromiseLike<HandlerResult> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
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
  if (body !== null && result.body instanceof JsonText)
    return new KeptTextResponse(result.status, headers, result.body);
  return { status: result.status, headers, body };
}
