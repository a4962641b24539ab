/**
 * `@entrada/sdk/logger`: a middleware that logs every attempt of every call — one line per outcome, at a level you
 * choose — with `Authorization`, cookies, client secrets, tokens and signed-link signatures redacted.
 * @example
 * import { logger } from "@entrada/sdk/logger";
 * const client = createClient({ baseUrl, clientId, clientSecret, middleware: [logger({ level: "info" })] });
 * // entrada: GET https://api.entrada.dev/shop/v1/discovery/events/evt_1 → 200 in 41 ms (attempt 1, log id log_01J…)
 */

import { type DeprecationNotice, deprecationNotice } from "./core/deprecation.ts";
import type { Middleware, MiddlewareParams } from "./core/transport.ts";
import { redactBody, redactHeaders, redactUrl } from "./redact.ts";

export type { Middleware, MiddlewareParams } from "./core/transport.ts";

/** `debug`: also each request before it is sent (headers, body); `info`: every outcome; `warn`: 4xx, 5xx and failures; `error`: failures only. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/** Where log lines go: `console` by default, or any logger with these methods (pino, winston, …). */
export interface LogSink {
  debug(message: string, fields: LogFields): void;
  info(message: string, fields: LogFields): void;
  warn(message: string, fields: LogFields): void;
  error(message: string, fields: LogFields): void;
}

/** The structured fields of a log line (nothing secret in them). */
export interface LogFields {
  method: string;
  /** The URL, secret query values redacted. */
  url: string;
  operationId: string | undefined;
  attempt: number;
  idempotencyKey: string | undefined;
  status?: number | undefined;
  durationMs?: number | undefined;
  /** `X-Log-Id` of the response: quote it in support requests. */
  logId?: string | undefined;
  /** On the one warning per deprecated operation: what the server said (`Deprecation`, `Sunset`, `Link`). */
  deprecation?: DeprecationNotice | undefined;
  /** The error's kind (`network`, `timeout`, `aborted`, `oauth`, …) when the attempt failed. */
  error?: string | undefined;
  /** At `debug`, before sending: the request's headers and body, secrets redacted. */
  headers?: Record<string, string> | undefined;
  body?: string | undefined;
}

export interface LoggerOptions {
  /** The least severe level written (default `info`). */
  level?: LogLevel;
  /** Where lines go (default `console`). */
  sink?: LogSink;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3, silent: 4 };

export function logger({ level = "info", sink = console }: LoggerOptions = {}): Middleware {
  const threshold = RANK[level];
  if (threshold === undefined) throw new TypeError(`logger: unknown level ${JSON.stringify(level)}`);
  const started = new Map<string, number>();
  const fields = (params: MiddlewareParams): LogFields => ({
    method: params.request.method,
    url: redactUrl(params.request.url),
    operationId: params.operationId,
    attempt: params.attempt,
    idempotencyKey: params.idempotencyKey,
  });
  const elapsed = (id: string) => {
    const start = started.get(id);
    started.delete(id);
    return start === undefined ? undefined : Math.round(performance.now() - start);
  };
  const write = (at: Exclude<LogLevel, "silent">, message: string, line: LogFields) => {
    if (RANK[at] >= threshold) sink[at](`entrada: ${message}`, line);
  };

  // One warning per operation (per logger): a deprecated call in a loop must not flood the log.
  const warned = new Set<string>();
  const warnIfDeprecated = (params: MiddlewareParams, response: Response) => {
    const deprecation = deprecationNotice(response.headers);
    const key =
      params.operationId ??
      `${params.request.method} ${params.pathTemplate ?? redactUrl(params.request.url)}`;
    if (!deprecation || warned.has(key)) return;
    warned.add(key);
    const day = (date: Date | undefined) => date?.toISOString().slice(0, 10);
    const since = deprecation.deprecatedAt ? ` since ${day(deprecation.deprecatedAt)}` : "";
    const sunset = deprecation.sunset ? `; it may stop working after ${day(deprecation.sunset)}` : "";
    const link = deprecation.link ? ` (${deprecation.link})` : "";
    write("warn", `${key} is deprecated${since}${sunset}${link}`, { ...fields(params), deprecation });
  };

  return {
    async onRequest(params) {
      started.set(params.id, performance.now());
      if (threshold > RANK.debug) return;
      const { request } = params;
      const body = request.body
        ? redactBody(await request.clone().text(), request.headers.get("content-type"))
        : undefined;
      const line = { ...fields(params), headers: redactHeaders(request.headers), body };
      write("debug", `${line.method} ${line.url} (attempt ${line.attempt})`, line);
    },
    onResponse(params) {
      const { response } = params;
      warnIfDeprecated(params, response);
      const line: LogFields = {
        ...fields(params),
        status: response.status,
        durationMs: elapsed(params.id),
        logId: response.headers.get("x-log-id") ?? undefined,
      };
      const logId = line.logId ? `, log id ${line.logId}` : "";
      write(
        response.status >= 400 ? "warn" : "info",
        `${line.method} ${line.url} → ${line.status} in ${line.durationMs} ms (attempt ${line.attempt}${logId})`,
        line,
      );
    },
    onError(params) {
      const line: LogFields = { ...fields(params), durationMs: elapsed(params.id), error: params.error.kind };
      write(
        params.error.kind === "aborted" ? "info" : "error",
        `${line.method} ${line.url} failed after ${line.durationMs} ms (attempt ${line.attempt}): ${params.error.message}`,
        line,
      );
    },
  };
}
