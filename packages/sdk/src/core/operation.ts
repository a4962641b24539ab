/**
 * Section methods: one function per operation of the contract, calling openapi-fetch with the transport as its
 * `fetch` and turning the outcome into `{ data } | { error }` with response meta.
 */

import type { Client } from "openapi-fetch";
import { EntradaError, type ErrorContext, NetworkError, UnexpectedResponseError } from "./errors.ts";
import { localeProblem, normalizeLocale } from "./language.ts";
import { errorFromResponse, isJsonContentType } from "./response.ts";
import type { CallOptions, CallState, Transport } from "./transport.ts";
import type { EntradaResult, EntradaSuccess, OperationMethod, RequestError, ResponseMeta } from "./types.ts";

type ResponseMode = "json" | "mixed" | "text" | "blob";

/** One parsed entry of the generated operation table. */
export interface OperationSpec {
  operationId: string;
  method: string;
  path: string;
  mode: ResponseMode;
  form: boolean;
}

/** `"POST /connect/token form"` → spec. */
export function parseOperationSpec(operationId: string, spec: string): OperationSpec {
  const [method = "GET", path = "/", ...flags] = spec.split(" ");
  const mode = (["mixed", "text", "blob"] as const).find((m) => flags.includes(m)) ?? "json";
  return { operationId, method, path, mode, form: flags.includes("form") };
}

interface RawInit extends CallOptions {
  params?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
}

const formSerializer = (body: unknown) => new URLSearchParams(body as Record<string, string>).toString();
const FORM_HEADERS = { "content-type": "application/x-www-form-urlencoded" };
const ACCEPT_JSON = { accept: "application/json" };

/** Response meta, read from the headers on first access (most calls never look). */
class Meta implements ResponseMeta {
  readonly #headers: Headers | undefined;
  readonly idempotencyKey: string | undefined;
  readonly attempts: number;
  constructor(response: Response | undefined, state: CallState) {
    this.#headers = response?.headers;
    this.idempotencyKey = state.idempotencyKey;
    this.attempts = state.attempts;
  }
  get logId(): string | undefined {
    return this.#headers?.get("x-log-id") ?? undefined;
  }
  get replayed(): boolean {
    return this.#headers?.get("idempotent-replayed") === "true";
  }
  get contentLanguage(): string | undefined {
    return this.#headers?.get("content-language") ?? undefined;
  }
  get requestId(): string | undefined {
    return this.#headers?.get("x-request-id") ?? undefined;
  }
  toJSON(): ResponseMeta {
    const { logId, replayed, contentLanguage, idempotencyKey, requestId, attempts } = this;
    return { logId, replayed, contentLanguage, idempotencyKey, requestId, attempts };
  }
}

function metaOf(response: Response | undefined, state: CallState): ResponseMeta {
  return new Meta(response, state);
}

function contextOf(
  response: Response,
  meta: ResponseMeta,
  spec: OperationSpec,
): ErrorContext & { status: number } {
  return {
    status: response.status,
    logId: meta.logId,
    requestId: meta.requestId,
    idempotencyKey: meta.idempotencyKey,
    operationId: spec.operationId,
    method: spec.method,
    url: response.url || undefined,
    attempts: meta.attempts,
  };
}

async function invoke(
  raw: Client<Record<string, never>>,
  transport: Transport,
  spec: OperationSpec,
  init: RawInit = {},
): Promise<EntradaResult<unknown>> {
  const { params, body, locale, idempotencyKey, signal, timeoutMs, totalTimeoutMs, retry } = init;
  let headers = init.headers;
  if (locale !== undefined) {
    const tag = normalizeLocale(locale);
    if (tag === undefined) throw new TypeError(localeProblem(locale));
    headers = { ...headers, "accept-language": tag };
  }
  const state: CallState = {
    attempts: 0,
    fromSection: true,
    holdTimer: true,
    prepared: true,
    sameOrigin: true,
    operationId: spec.operationId,
  };
  const call: CallOptions = { idempotencyKey, signal, timeoutMs, totalTimeoutMs, retry };
  let response: Response | undefined;
  try {
    // biome-ignore lint/suspicious/noExplicitAny: the generic raw client is typed per path by the public types.
    const result = await (raw.request as any)(spec.method, spec.path, {
      params,
      body,
      headers: spec.form
        ? { ...FORM_HEADERS, ...headers }
        : spec.mode === "mixed"
          ? { ...ACCEPT_JSON, ...headers }
          : headers,
      bodySerializer: spec.form ? formSerializer : undefined,
      parseAs: spec.mode === "blob" ? "blob" : "text",
      fetch: (request: Request) => transport.send(request, call, state),
    });
    state.settle?.();
    response = result.response as Response;
    const meta = metaOf(response, state);
    if (!response.ok) {
      const error = errorFromResponse(
        response.status,
        response.headers,
        state.errorBody ?? "",
        contextOf(response, meta, spec),
      );
      return { error: error as RequestError, response, meta };
    }
    const contentType = response.headers.get("content-type");
    // Binary and text bodies as they are; a mixed operation's non-JSON answer (e.g. XML) as text.
    if (
      spec.mode === "blob" ||
      spec.mode === "text" ||
      (spec.mode === "mixed" && !isJsonContentType(contentType))
    ) {
      return { data: result.data ?? (spec.mode === "blob" ? undefined : ""), response, meta };
    }
    const text = (result.data as string | undefined) ?? "";
    if (text === "") return { data: undefined, response, meta };
    let reason = "expected a JSON body";
    if (isJsonContentType(contentType)) {
      try {
        return { data: JSON.parse(text), response, meta };
      } catch {
        reason = "the body is not valid JSON";
      }
    }
    const error = new UnexpectedResponseError(
      reason,
      text,
      contentType ?? undefined,
      contextOf(response, meta, spec),
    );
    return { error, response, meta };
  } catch (error) {
    state.settle?.();
    response ??= state.response;
    if (error instanceof EntradaError)
      return { error: error as RequestError, response, meta: metaOf(response, state) };
    // A 2xx body that broke off while it was read (connection reset): a network error, like a failed fetch.
    if (state.response && !(signal?.aborted && error === signal.reason)) {
      const message = error instanceof Error ? error.message : String(error);
      const network = new NetworkError(`Network error while reading the response: ${message}`, {
        status: state.response.status,
        logId: state.response.headers.get("x-log-id") ?? undefined,
        idempotencyKey: state.idempotencyKey,
        operationId: spec.operationId,
        method: spec.method,
        attempts: state.attempts,
        cause: error,
      });
      return { error: network, response, meta: metaOf(response, state) };
    }
    // The caller's abort reason, or a programming error (e.g. an invalid idempotency key): rethrown as is.
    throw error;
  }
}

/** Builds the callable for one operation, with `.orThrow`. */
export function createOperationMethod(
  raw: Client<Record<string, never>>,
  transport: Transport,
  spec: OperationSpec,
): OperationMethod<unknown, unknown> {
  const method = (init?: unknown) => invoke(raw, transport, spec, init as RawInit | undefined);
  const orThrow = async (init?: unknown): Promise<EntradaSuccess<unknown>> => {
    const result = await method(init);
    if (result.error) throw result.error;
    return result;
  };
  return Object.assign(method, {
    orThrow,
    operationId: spec.operationId,
    method: spec.method,
    path: spec.path,
  }) as OperationMethod<unknown, unknown>;
}
