import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  type TextMapPropagator,
  trace,
} from "@opentelemetry/api";
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/index.ts";
import { inboxTracing, otel } from "../../src/otel.ts";
import { BASE, fakeApi, json, problem } from "../helpers.ts";

const FAST = { baseDelayMs: 1, maxDelayMs: 2 };

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer("test") };
}

afterEach(() => {
  propagation.disable();
  trace.disable();
});

describe("OpenTelemetry middleware (@entrada/sdk/otel)", () => {
  it("records one CLIENT span per attempt with the HTTP semantic conventions, the resend count, key and log id", async () => {
    const { exporter, tracer } = tracing();
    const api = fakeApi((_, i) =>
      i < 2
        ? problem(503, "service-unavailable", {}, { "x-log-id": `log_${i}` })
        : json(201, { id: "crt_1" }, { "x-log-id": "log_2" }),
    );
    const client = createClient({ baseUrl: BASE, accessToken: "tok", fetch: api.fetch, retry: FAST });
    client.use(otel({ tracer }));
    const { meta } = await client.shop.createCart({ body: {} });

    const spans = exporter.getFinishedSpans();
    expect(spans).toHaveLength(3);
    const key = meta.idempotencyKey as string;
    spans.forEach((span, i) => {
      expect(span.name).toBe("POST /shop/v1/cart");
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.attributes).toEqual({
        "http.request.method": "POST",
        "url.full": `${BASE}/shop/v1/cart`,
        "url.template": "/shop/v1/cart",
        "server.address": "api.test.entrada.dev",
        "server.port": 443,
        "http.response.status_code": i < 2 ? 503 : 201,
        "http.request.header.idempotency-key": [key],
        "http.response.header.x-log-id": [`log_${i}`],
        "entrada.operation_id": "createCart",
        ...(i > 0 && { "http.request.resend_count": i }),
        ...(i < 2 && { "error.type": "503" }),
      });
      expect(span.status.code).toBe(i < 2 ? SpanStatusCode.ERROR : SpanStatusCode.UNSET);
    });
  });

  it("ends a failed attempt's span with the error's kind and the exception", async () => {
    const { exporter, tracer } = tracing();
    const api = fakeApi(() => {
      throw new TypeError("fetch failed");
    });
    const client = createClient({
      baseUrl: BASE,
      accessToken: "tok",
      fetch: api.fetch,
      retry: { ...FAST, maxRetries: 1 },
      middleware: [otel({ tracer })],
    });
    await expect(client.fetch("/assets/v1/tickets/tkt_1.pdf?signature=abc")).rejects.toMatchObject({
      kind: "network",
    });
    const spans = exporter.getFinishedSpans();
    expect(
      spans.map((s) => [s.name, s.attributes["error.type"], s.attributes["http.request.resend_count"]]),
    ).toEqual([
      ["GET", "network", undefined],
      ["GET", "network", 1],
    ]);
    expect(spans[0]?.attributes["url.full"]).toBe(
      `${BASE}/assets/v1/tickets/tkt_1.pdf?signature=%5Bredacted%5D`,
    );
    expect(spans[0]?.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(spans[0]?.events.map((e) => e.name)).toEqual(["exception"]);
  });

  it("uses the globally registered tracer by default and sends the trace context to the API", async () => {
    const { exporter, tracer } = tracing();
    trace.setGlobalTracerProvider({ getTracer: () => tracer });
    // A minimal propagator: the span's ids as a W3C traceparent.
    const w3c: TextMapPropagator = {
      inject(ctx, carrier, setter) {
        const span = trace.getSpanContext(ctx);
        if (span) setter.set(carrier, "traceparent", `00-${span.traceId}-${span.spanId}-01`);
      },
      extract: (ctx) => ctx,
      fields: () => ["traceparent"],
    };
    propagation.setGlobalPropagator(w3c);
    const api = fakeApi(() => json(200, { items: [] }));
    const client = createClient({
      baseUrl: BASE,
      accessToken: "tok",
      fetch: api.fetch,
      middleware: [otel()],
    });
    await context.with(context.active(), () => client.shop.listVenues());
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe("GET /shop/v1/discovery/venues");
    expect(api.calls[0]?.headers.get("traceparent")).toBe(
      `00-${span?.spanContext().traceId}-${span?.spanContext().spanId}-01`,
    );
  });
});

describe("webhook inbox spans (inboxTracing)", () => {
  it("makes a CONSUMER span per receive and per attempt, the failed attempt an error with its exception", async () => {
    const { exporter, tracer } = tracing();
    const spans = inboxTracing({ tracer });
    const attributes = { "messaging.message.id": "msg_1", "entrada.event.type": "cart.completed" };
    expect(await spans.span("receive", attributes, async () => "stored")).toBe("stored");
    await expect(
      spans.span("process", { ...attributes, "entrada.inbox.attempt": 1 }, async () => {
        throw new Error("GA4 answered 503");
      }),
    ).rejects.toThrow("GA4 answered 503");
    const [receive, process] = exporter.getFinishedSpans();
    expect(receive?.name).toBe("receive entrada-webhooks");
    expect(receive?.kind).toBe(SpanKind.CONSUMER);
    expect(receive?.attributes).toEqual({
      "messaging.system": "entrada-webhooks",
      "messaging.operation.type": "receive",
      ...attributes,
    });
    expect(process?.name).toBe("process entrada-webhooks");
    expect(process?.attributes["entrada.inbox.attempt"]).toBe(1);
    expect(process?.status).toEqual({ code: SpanStatusCode.ERROR, message: "GA4 answered 503" });
    expect(process?.events.map((e) => e.name)).toEqual(["exception"]);
  });
});
