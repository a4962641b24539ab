/**
 * Section methods: one function per operation of the contract. Each builds its request from the generated table
 * (path and query serialization as OpenAPI's defaults: `simple` path segments, `form` + `explode` queries, except
 * the query arrays the contract declares `explode: false`, sent comma-separated), sends
 * it through the transport and turns the outcome into `{ data } | { error }` with response meta. Nothing rejects:
 * invalid arguments, aborts and network failures come back as `{ error }` too (`.orThrow` throws them).
 */

import { type ResponseBody, readText } from "./bodies.ts";
import { InvalidArgumentError, isEntradaError, UnexpectedBodyError } from "./errors.ts";
import {
  callContext,
  errorFromResponse,
  isJsonContentType,
  parseSuccessJson,
  responseMeta,
} from "./response.ts";
import type { CallOptions, CallState, Transport } from "./transport.ts";
import type { EntradaResult, Operation } from "./types.ts";

/** What the generated sections say about one operation besides its id, method and path. */
export interface OperationOptions {
  /** How a 2xx body is read, when not as JSON (`blobBody`, `textBody`, `mixedBody` of `bodies.ts`). */
  read?: ResponseBody | undefined;
  /** The request body is sent form-urlencoded (the token request). */
  form?: boolean | undefined;
  /** Query parameters whose arrays are sent comma-separated (`form`, `explode: false`: `include=a,b`). */
  comma?: readonly string[] | undefined;
}

/** One operation as a section method runs it. */
export interface OperationSpec extends OperationOptions {
  operationId: string;
  method: string;
  path: string;
  /** Why a parsed 2xx body cannot be used (the token response without `access_token`), if it cannot. */
  check?: ((data: unknown) => string | undefined) | undefined;
}

/**
 * Makes the method of one operation from its HTTP method and path; the generated sections
 * (`src/generated/sections.ts`) call it per operation, inside `named`, which gives each method its operation id.
 */
export type OperationFactory = <Op, Data, Slug extends string>(
  method: string,
  path: string,
  options?: OperationOptions,
) => Operation<Op, Data, Slug>;

/** A section's methods, each given its operation id: its key (`getEvent: op("GET", …)` is `getEvent`). */
export function named<Methods extends Record<string, { readonly operationId: string }>>(
  methods: Methods,
): Methods {
  for (const [operationId, method] of Object.entries(methods))
    (method as { operationId: string }).operationId = operationId;
  return methods;
}

interface Init extends CallOptions {
  params?: {
    path?: Record<string, unknown>;
    query?: Record<string, unknown>;
    header?: Record<string, unknown>;
  };
  body?: unknown;
}

/** What a section method needs besides its spec. */
export interface OperationContext {
  transport: Pick<Transport, "send">;
  baseUrl: string;
  /**
   * Writes a `form` operation's body (the token request's, see `oauth.ts`) and its headers; only clients whose
   * sections have such an operation (the `token` section) pass one.
   */
  form?: ((body: unknown, headers: Headers) => string) | undefined;
}

const encode = encodeURIComponent;
const text = (value: unknown) => (value instanceof Date ? value.toISOString() : String(value));
/** An array as one comma-separated value (`simple` path segments, `explode: false` queries). */
const commaSeparated = (values: unknown[]) => values.map((v) => encode(text(v))).join(",");

/**
 * Query string in OpenAPI's default style (`form`, `explode`): arrays repeat the name, objects go deep. The
 * top-level names in `comma` (`explode: false`) send an array as one comma-separated value instead.
 */
function queryString(query: Record<string, unknown> | undefined, comma?: readonly string[]): string {
  if (!query) return "";
  const parts: string[] = [];
  const add = (name: string, value: unknown) => {
    if (value == null) return;
    if (Array.isArray(value) && comma?.includes(name)) parts.push(`${encode(name)}=${commaSeparated(value)}`);
    else if (Array.isArray(value)) for (const v of value) add(name, v);
    else if (typeof value === "object" && !(value instanceof Date))
      for (const [k, v] of Object.entries(value)) add(name ? `${name}[${k}]` : k, v);
    else parts.push(`${encode(name)}=${encode(text(value))}`);
  };
  // The query object itself is the outermost object (its keys are the names).
  add("", query);
  return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * A call's result: `data` or `error`, the final response, and `meta`, read from the response's headers when asked
 * for (most calls never look). The call's state is a private field: neither compared, spread nor serialized. A
 * class, so that every result shares one `meta` getter: a getter made per result kept results alive longer
 * (`bench/gc-get.mjs` shows the difference).
 */
class Result {
  readonly #state: CallState;
  declare readonly response: Response | undefined;
  constructor(field: "data" | "error", value: unknown, state: CallState) {
    (this as Record<string, unknown>)[field] = value;
    (this as { response: unknown }).response = state.response;
    this.#state = state;
    Object.defineProperty(this, "meta", Result.#meta);
  }
  static #meta = {
    enumerable: true,
    get(this: Result) {
      return responseMeta(this.#state, this.response);
    },
  };
}

/** Runs one operation: `{ data }` or `{ error }` with the response and its meta; never rejects. */
export async function invoke(
  context: OperationContext,
  spec: OperationSpec,
  init: Init = {},
): Promise<EntradaResult<unknown>> {
  const { params, body } = init;
  const { method, read: reader } = spec;
  const state: CallState = {
    attempts: 0,
    operationId: spec.operationId,
    pathTemplate: spec.path,
    read: reader?.read ?? readText,
  };
  // Path parameters in the `simple` style: an array comma-separated.
  const path = spec.path.replace(/\{(.+?)\}/g, (_, name: string) => {
    const value = params?.path?.[name];
    return Array.isArray(value) ? commaSeparated(value) : encode(text(value));
  });
  const url = `${context.baseUrl}${path}${queryString(params?.query, spec.comma)}`;
  const result = (field: "data" | "error", value: unknown) =>
    new Result(field, value, state) as unknown as EntradaResult<unknown>;
  try {
    // JSON asked for where the operation also has other media types (OData `$metadata`: JSON or XML); the
    // call's headers may ask otherwise, the contract's header parameters win over both.
    const headers = new Headers(init.headers);
    if (reader?.accept && !headers.has("accept")) headers.set("accept", reader.accept);
    const header = params?.header;
    for (const name in header) if (header[name] != null) headers.set(name, text(header[name]));
    let payload: string | undefined;
    if (spec.form && context.form) payload = context.form(body, headers);
    else if (body !== undefined) {
      headers.set("content-type", "application/json");
      payload = JSON.stringify(body);
    }
    const response = await context.transport.send(
      new Request(url, { method, headers, body: payload }),
      init,
      state,
    );
    const contentType = response.headers.get("content-type");
    const data = state.body;
    if (!response.ok)
      return result(
        "error",
        errorFromResponse(response.headers, data as string, callContext(state, method, url, response)),
      );
    // JSON (the default, and what a reader asked for) parsed — a 204's empty body is `undefined` —, else the body
    // as it was read.
    const parsed =
      !reader || (reader.accept && isJsonContentType(contentType))
        ? parseSuccessJson(data as string, contentType)
        : { ok: true as const, value: data };
    const reason = parsed.ok ? spec.check?.(parsed.value) : parsed.reason;
    return reason
      ? result(
          "error",
          new UnexpectedBodyError(
            reason,
            data as string,
            contentType ?? undefined,
            callContext(state, method, url, response),
          ),
        )
      : result("data", (parsed as { value: unknown }).value);
  } catch (error) {
    // The transport fails with `EntradaError`s only (a body that broke off while it was read included); anything
    // else is a request that could not be built: a body that is no JSON (a cycle, a BigInt), a header value with
    // a newline.
    return result(
      "error",
      isEntradaError(error)
        ? error
        : new InvalidArgumentError(
            "init",
            `invalid request: ${text(error)}`,
            callContext(state, method, url, undefined, error),
          ),
    );
  }
}

/** `call` with `.orThrow`: the same call, resolving to `{ data, ... }` or rejecting with the error. */
export function withOrThrow<Args extends unknown[], R extends { error?: unknown }>(
  call: (...args: Args) => Promise<R>,
): ((...args: Args) => Promise<R>) & { orThrow(...args: Args): Promise<R> } {
  return Object.assign(call, {
    orThrow: async (...args: Args) => {
      const result = await call(...args);
      if (result.error) throw result.error;
      return result;
    },
  });
}

/**
 * The `op` of the generated sections: each call makes the method of one operation — a function of `init` with
 * `.orThrow` that carries its operation (id, method, path, how bodies are read and sent) as properties.
 */
export function operationFactory(context: OperationContext): OperationFactory {
  return <Op, Data, Slug extends string>(method: string, path: string, options?: OperationOptions) => {
    const operation: OperationSpec = Object.assign(
      withOrThrow((init?: Init) => invoke(context, operation, init)),
      { method, path, ...options } as OperationSpec,
    );
    return operation as unknown as Operation<Op, Data, Slug>;
  };
}
