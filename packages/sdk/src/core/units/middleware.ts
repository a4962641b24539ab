/**
 * The integrators' middleware (`client.use(...)`), run on every attempt — a retry passes through it again, as does
 * the repeat after a rejected token. `onRequest` runs in the order registered and may replace the request or answer
 * it with a `Response` of its own; `onResponse` and `onError` run in reverse order. `onError` sees the attempt's
 * `EntradaError` (network, timeout, aborted, the token request's) and may answer with a `Response` instead.
 */

import { type EntradaError, InvalidArgumentError, isEntradaError } from "../errors.ts";
import type { Call, CallOptions, Send, Unit } from "../types.ts";

/** What every middleware callback is told about the attempt. */
export interface MiddlewareParams {
  /** The attempt's request (headers as sent, except `Authorization`, which the credentials add after). */
  readonly request: Request;
  /** The contract's operation id of a section method (`getEvent`); `undefined` for `client.fetch`. */
  readonly operationId: string | undefined;
  /** The operation's path template (`/shop/v1/discovery/events/{eventId}`); `undefined` for `client.fetch`. */
  readonly pathTemplate: string | undefined;
  /** 1 for the first attempt, 2 for the first repeat (a retry, or the repeat with a renewed token), … */
  readonly attempt: number;
  /** The `Idempotency-Key` every attempt of this write carries. */
  readonly idempotencyKey: string | undefined;
  /** The call's options (`locale`, `signal`, `timeoutMs`, …). */
  readonly options: Readonly<CallOptions>;
  /** Unique per attempt: pairs an `onRequest` with its `onResponse` or `onError`. */
  readonly id: string;
}

// biome-ignore-start lint/suspicious/noConfusingVoidType: a callback may return nothing, as openapi-fetch's may.
/**
 * Hooks into every attempt of every call (section methods, `client.fetch`, `rawClient`, the token request, the BI
 * feed on the client). The response's body has been read into the call's result when the call reads one (section
 * methods): use its status and headers.
 */
export interface Middleware {
  /** Before the attempt is sent: return a `Request` to send instead, or a `Response` to answer without sending. */
  onRequest?(params: MiddlewareParams): void | Request | Response | Promise<void | Request | Response>;
  /** After a response arrived: return a `Response` to replace it. */
  onResponse?(
    params: MiddlewareParams & { readonly response: Response },
  ): void | Response | Promise<void | Response>;
  /** After the attempt failed without a response: return a `Response` to answer with instead. */
  onError?(
    params: MiddlewareParams & { readonly error: EntradaError },
  ): void | Response | Promise<void | Response>;
}
// biome-ignore-end lint/suspicious/noConfusingVoidType: (end)

let attempts = 0;

/**
 * The middleware registered with a client, read by every attempt. `use` and `eject` replace `list`, never change it
 * in place: an attempt in flight keeps the list it started with.
 */
export interface Registered {
  list: readonly Middleware[];
}

export function middleware(registered: Registered): Unit {
  return (next) => (request, call) => {
    const list = registered.list;
    // Without middleware the attempt goes straight on (no extra promise on the hot path).
    return list.length === 0 ? next(request, call) : around(list, next, request, call);
  };
}

/** One attempt through the hooks of `list`. */
async function around(
  list: readonly Middleware[],
  next: Send,
  request: Request,
  call: Call,
): Promise<Response> {
  const reversed = [...list].reverse();
  const { state } = call;
  let params: MiddlewareParams = {
    request,
    operationId: state.operationId,
    pathTemplate: state.pathTemplate,
    attempt: state.attempts,
    idempotencyKey: state.idempotencyKey,
    options: call.options,
    id: `${++attempts}`,
  };
  /** A response a middleware made is the attempt's: its body is read as the transport would have. */
  const adopt = async (response: Response) => {
    state.response = response;
    if (state.read) state.body = await state.read(response);
    return response;
  };

  let response: Response | undefined;
  try {
    for (const m of list) {
      const result = await m.onRequest?.(params);
      if (result instanceof Request) params = { ...params, request: result };
      else if (result instanceof Response) {
        response = await adopt(result);
        break;
      }
    }
    response ??= await next(params.request, call);
  } catch (thrown) {
    // A middleware that throws fails the attempt like anything else: with an `EntradaError` naming it.
    const error = isEntradaError(thrown)
      ? thrown
      : new InvalidArgumentError("middleware", String(thrown), call.info(undefined, thrown));
    for (const m of reversed) {
      const result = await m.onError?.({ ...params, error });
      // A recovered attempt ends here: its response is the middleware's own.
      if (result instanceof Response) return adopt(result);
    }
    throw error;
  }
  for (const m of reversed) {
    const result = await m.onResponse?.({ ...params, response });
    if (result instanceof Response) response = await adopt(result);
  }
  return response;
}
