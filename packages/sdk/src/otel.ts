/**
 * `@entrada/sdk/otel`: OpenTelemetry client spans for every attempt of every call, after the HTTP semantic
 * conventions (stable): span kind `CLIENT`, named `{method} {url.template}` (`GET /shop/v1/discovery/events/{eventId}`)
 * for section methods and `{method}` otherwise, with `http.request.method`, `url.full` (secret query values
 * redacted), `url.template`, `server.address`, `server.port`, `http.request.resend_count` (on every repeat: retry or
 * renewed token), `http.response.status_code`, `error.type` (the status of a 4xx/5xx, or the error's kind:
 * `network`, `timeout`, …), the `Idempotency-Key` as `http.request.header.idempotency-key` and the API's log id as
 * `http.response.header.x-log-id`. The trace context travels to the API in `traceparent` (W3C), unless turned off.
 * Needs `@opentelemetry/api` (an optional peer dependency of the SDK: install it where you trace).
 * @example
 * import { otel } from "@entrada/sdk/otel";
 * client.use(otel()); // spans go to the tracer provider you registered (NodeSDK, WebTracerProvider, …)
 */

import {
  context,
  propagation,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from "@opentelemetry/api";
import type { Middleware } from "./core/transport.ts";
import { SDK_VERSION } from "./core/version.ts";
import { redactUrl } from "./redact.ts";
import type { InboxTracing } from "./webhooks/inbox-worker.ts";

export type { Middleware, MiddlewareParams } from "./core/transport.ts";
export type { InboxTracing } from "./webhooks/inbox-worker.ts";

export interface OtelOptions {
  /** The tracer to start spans with (default: the global provider's tracer `@entrada/sdk`). */
  tracer?: Tracer;
  /** Send the trace context to the API (`traceparent`, `tracestate`; default `true`). */
  propagate?: boolean;
}

export function otel({ tracer, propagate = true }: OtelOptions = {}): Middleware {
  const spans = new Map<string, Span>();
  const end = (id: string, finish: (span: Span) => void) => {
    const span = spans.get(id);
    spans.delete(id);
    if (span) {
      finish(span);
      span.end();
    }
  };

  return {
    onRequest({ request, id, attempt, pathTemplate, operationId, idempotencyKey }) {
      const { method } = request;
      const url = new URL(request.url);
      const span = (tracer ?? trace.getTracer("@entrada/sdk", SDK_VERSION)).startSpan(
        pathTemplate ? `${method} ${pathTemplate}` : method,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            "http.request.method": method,
            "url.full": redactUrl(request.url),
            "server.address": url.hostname,
            "server.port": Number(url.port) || (url.protocol === "https:" ? 443 : 80),
            ...(pathTemplate && { "url.template": pathTemplate }),
            ...(attempt > 1 && { "http.request.resend_count": attempt - 1 }),
            ...(idempotencyKey && { "http.request.header.idempotency-key": [idempotencyKey] }),
            ...(operationId && { "entrada.operation_id": operationId }),
          },
        },
      );
      spans.set(id, span);
      if (propagate)
        propagation.inject(trace.setSpan(context.active(), span), request.headers, {
          set: (headers, name, value) => headers.set(name, value),
        });
    },
    onResponse({ id, response }) {
      end(id, (span) => {
        const status = response.status;
        span.setAttribute("http.response.status_code", status);
        const logId = response.headers.get("x-log-id");
        if (logId) span.setAttribute("http.response.header.x-log-id", [logId]);
        // Client spans: 4xx and 5xx are errors; the status code is the error type.
        if (status >= 400) {
          span.setAttribute("error.type", String(status));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      });
    },
    onError({ id, error }) {
      end(id, (span) => {
        span.setAttribute("error.type", error.kind);
        span.recordException(error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
      });
    },
  };
}

/**
 * Spans for the webhook inbox (`createWebhookInbox({ tracing: inboxTracing() })`), after the messaging semantic
 * conventions: `receive entrada-webhooks` around verifying and storing a delivery, `process entrada-webhooks` around
 * each attempt of the handler (active, so the handler's own calls are its children), both `CONSUMER`, with
 * `messaging.system`, `messaging.operation.type`, `messaging.message.id` (the `webhook-id`), the event type and the
 * attempt; a failed attempt is an error span with the exception.
 */
export function inboxTracing({ tracer }: Pick<OtelOptions, "tracer"> = {}): InboxTracing {
  return {
    span(name, attributes, work) {
      return (tracer ?? trace.getTracer("@entrada/sdk", SDK_VERSION)).startActiveSpan(
        `${name} entrada-webhooks`,
        {
          kind: SpanKind.CONSUMER,
          attributes: {
            "messaging.system": "entrada-webhooks",
            "messaging.operation.type": name,
            ...attributes,
          },
        },
        async (span) => {
          try {
            return await work();
          } catch (error) {
            span.recordException(error as Error);
            span.setStatus({
              code: SpanStatusCode.ERROR,
              message: String((error as Error)?.message ?? error),
            });
            throw error;
          } finally {
            span.end();
          }
        },
      );
    },
  };
}
