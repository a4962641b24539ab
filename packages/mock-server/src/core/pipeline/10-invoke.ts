/**
 * Handler invocation: builds the operation context, runs the section's handler, renders its result (or the problem
 * it threw), validates the response in tests, then publishes the webhook events it emitted.
 */

import { cors } from "../cors.ts";
import type { OperationSpec } from "../document.ts";
import type { MockCore } from "../engine.ts";
import { ProblemError, problemResponse } from "../problems.ts";
import type { MockSession } from "../session.ts";
import { queryRecord } from "../target.ts";
import type {
  AuthInfo,
  Culture,
  HandlerResult,
  MockResponse,
  OperationHandler,
  WebhookEventType,
} from "../types.ts";
import { buildContext, publishEvent } from "./context.ts";

/** Response validation (tests): the mock's own answers checked against the document. */

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
  const events: Array<{ type: WebhookEventType; data: Record<string, unknown> }> = [];
  const ctx = buildContext({
    core,
    session,
    operationId: op.operationId,
    method: op.method,
    url: input.url,
    params: input.params,
    query: queryRecord(input.url.searchParams, op.commaQuery),
    headers: input.headers,
    body: input.body,
    culture,
    auth: input.auth,
    logId,
    publish: (type, data) => {
      events.push({ type, data });
    },
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
      (core.options.onError ?? ((e: unknown) => console.error(e)))(error, op.operationId);
      response = problemResponse("internal-error", culture, logId, undefined, {
        instance: pathname,
        headers: rateHeaders,
      });
    }
  }
  if (core.options.validateResponses) checkResponse(core, op, response, culture, logId);
  // Events of a handler that crashed are dropped; those of a deliberate problem are kept.
  if (keepEvents) for (const e of events) publishEvent(core, session, e.type, e.data);
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

/**
 * Records a response that the document does not describe (status, content type, body schema) in
 * `core.responseViolations`; in "strict" mode turns it into a 500 naming the violations.
 */
export function checkResponse(
  core: MockCore,
  op: OperationSpec,
  response: MockResponse,
  culture: Culture,
  logId: string,
): void {
  const errors = responseViolations(core, op, response);
  if (errors.length === 0) return;
  core.responseViolations.push({ operationId: op.operationId, status: response.status, errors });
  if (core.options.validateResponses === "strict") {
    const problem = problemResponse("internal-error", culture, logId, undefined, {
      detail: `The mock's response violates the document: ${errors.join("; ")}`,
      extensions: { violations: errors, originalStatus: response.status },
    });
    response.status = problem.status;
    response.headers = problem.headers;
    response.body = problem.body;
  }
}

/**
 * What makes a response differ from the document: an undocumented status or content type, a body the status's
 * schema rejects, or a missing body. Empty when it conforms (tests run every fuzzed response through it).
 */
export function responseViolations(
  core: Pick<MockCore, "validator">,
  op: OperationSpec,
  response: Pick<MockResponse, "status" | "headers" | "body">,
): string[] {
  const status = String(response.status);
  const media =
    op.responses.get(status) ?? op.responses.get(`${status[0]}XX`) ?? op.responses.get("default") ?? null;
  const errors: string[] = [];
  if (!media) {
    errors.push(`Status ${status} is not documented for ${op.operationId}.`);
  } else {
    const type = (response.headers["content-type"] ?? "").split(";")[0]?.trim() ?? "";
    if (media.size > 0 && response.body !== null) {
      if (!media.has(type))
        errors.push(`Content-Type ${type} is not documented for ${op.operationId} ${status}.`);
      else {
        const pointer = media.get(type);
        if (pointer && typeof response.body === "string" && type.endsWith("json")) {
          errors.push(...core.validator.response(pointer, JSON.parse(response.body)));
        }
      }
    } else if (media.size > 0 && response.body === null && status !== "204") {
      errors.push(`${op.operationId} ${status} has no body but the document describes one.`);
    }
  }
  return errors;
}
