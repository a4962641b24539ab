import type { components } from "@entrada/openapi/schema";
/**
 * The transport-agnostic contract between the mock's engine and its section modules.
 * The engine (router compiled from the OpenAPI document, validation, auth, idempotency, localization,
 * faults) calls a module's handler only with a request that already passed the contract checks.
 */

/** A request as any transport (node:http, msw, a test) hands it to the engine. */
export interface MockRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** Header names lower-cased; repeated headers joined with ", " except where the engine rejects duplicates. */
  headers: Record<string, string>;
  body: Uint8Array | null;
  /**
   * Lower-cased names of headers the client sent more than once (transports that can tell fill it); the preamble
   * refuses those that must come once (`SINGLETON_HEADERS`).
   */
  duplicateHeaders?: string[];
}

export interface MockResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  /** Fault injection asked to drop the connection: transports destroy the socket / answer a network error. */
  drop?: boolean;
  /**
   * The request is handed to a server mounted beside the API (`pipeline/mounts.ts`): the transport lets it answer
   * on the connection itself, streams included (status, headers and body are not used).
   */
  mounted?: MountedServer;
}

/** A server a transport mounts beside the API (the node server's docs and BI assistant), as the pipeline sees it. */
export interface MountedServer {
  /** Whether it answers this request; the API answers any other. */
  serves(request: MockRequest): boolean;
}

/** An event kind of the contract's `webhooks` section. */
export type WebhookEventType = components["schemas"]["WebhookEventType"];

/**
 * A culture tag the mock serves (`de-CH`). The list is data — the contract's culture catalogue and the mock's
 * message files, plus any culture registered at run time — so the type is a string (the SDK's `Culture` is the
 * generated union of the built-in ones).
 */
export type Culture = string;

/**
 * Values for a message's `{name}` placeholders: plain values, or texts that are themselves localized (an event's
 * name inside a sentence), filled in the same culture.
 */
export type MessageParams = Readonly<Record<string, string | number | LocalizedText>>;

/** A reference to a text of the culture message files (`msg(key, params)` in core/messages.ts). */
export interface Message {
  readonly $msg: string;
  readonly params?: MessageParams;
}

/**
 * A text in every culture: a message reference (looked up in the request's culture), or literal texts by
 * culture tag (what a client sent in several languages). Handlers pick with `ctx.text()`.
 */
export type LocalizedText = Message | Readonly<Record<Culture, string>>;

export interface AuthInfo {
  kind: "client" | "session";
  clientId: string;
  scopes: string[];
  /** For session tokens: the shop session id. */
  sessionId?: string;
}

/** Controllable time, so tokens, holds and idempotency keys can be expired on demand. */
export interface Clock {
  now(): number;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Set when the body is not JSON (e.g. CSV, XML, HTML, PDF). */
  contentType?: string;
  /** Raw body for non-JSON responses. */
  raw?: string | Uint8Array;
}

export interface OperationContext {
  operationId: string;
  method: string;
  url: URL;
  /** Path parameters, decoded. */
  params: Readonly<Record<string, string>>;
  /** Query parameters as received (repeated ones as arrays). */
  query: Readonly<Record<string, string | string[]>>;
  headers: Record<string, string>;
  /** Parsed and schema-validated body (JSON or form), or undefined. */
  body: unknown;
  /** The negotiated culture for this request (from Accept-Language with q-values and fallback). */
  culture: Culture;
  auth: AuthInfo | null;
  /** The isolated world of this request's mock session (see the `X-Mock-Session` header). */
  world: World;
  clock: Clock;
  /** Pick the negotiated culture's text. */
  text(value: LocalizedText): string;
  /** Throw an RFC 9457 problem from the catalogue (slug as in DECISIONS.md). Localized by the engine. */
  problem(slug: string, detail?: string, extensions?: Record<string, unknown>): never;
  /** Queue a webhook event (type as in the contract's `webhooks` section) for asynchronous delivery. */
  emit(type: WebhookEventType, data: Record<string, unknown>): void;
  /** A new opaque id with the given prefix, e.g. `id("crt")` → `crt_01J...`. */
  id(prefix: string): string;
  /**
   * A signed, expiring (24 h) absolute link to an asset path relative to the base URL, e.g.
   * `ctx.signedUrl("/assets/v1/tickets/tkt_1.pdf")` (the contract's `signedUrl` scheme; opens without a bearer).
   */
  signedUrl(path: string): string;
  /** Where the API is served: origin plus any base path, no trailing slash (for absolute links). */
  baseUrl?: string;
  /** The request's mock session (`X-Mock-Session`, "default" without the header). */
  mockSession?: string;
  /** The log id of this response (also sent as `X-Log-Id`). */
  logId?: string;
  /** Issues a short-lived bearer session token for the embedded shop (engine-owned token store). */
  issueSessionToken?(input: { sessionId: string; ttlSeconds: number; allowedOrigins: string[] }): {
    token: string;
    expiresAt: number;
  };
}

export type OperationHandler = (ctx: OperationContext) => HandlerResult | Promise<HandlerResult>;

/**
 * A world is JSON-serializable data: snapshots are its JSON, restore parses it back (`structuredClone`). A slice
 * may keep a churning table as a Map or Set that serializes as a plain object (`sections/shared/id-tables.ts`);
 * its accessor turns the restored object back into the table.
 * Each section module owns one slice, keyed by its name.
 */
export interface World {
  [section: string]: unknown;
}

/** Renders an engine problem (the parsed problem+json body) in a section's own error format. */
export interface ErrorFormat {
  /** Path below the base path, e.g. `/bi/v1/odata` (matches itself and everything below it). */
  pathPrefix: string;
  render(problem: {
    status: number;
    title?: string;
    detail?: string;
    logId?: string;
    errors?: { pointer: string; detail: string }[];
  }): { contentType: string; headers?: Record<string, string>; body: unknown };
  /**
   * The culture of everything answered on these paths, the engine's own errors included, when the section
   * negotiates differently from the API-wide rule (the BI feed: English for no header or `*`). Called with the
   * raw `Accept-Language` (undefined when absent) after the engine has checked it is well-formed, and with
   * undefined for a malformed one's 400. Default: the API-wide negotiation.
   */
  culture?(acceptLanguage: string | undefined): Culture;
}

export interface ControlRoute {
  method: string;
  /** Path below `/__mock`, with `{param}` segments, e.g. `/pay/{paymentId}`. */
  path: string;
  /** One line for the `/__mock` index. */
  description: string;
  handler: OperationHandler;
}

/** Seed files are JSON objects keyed by section name; each module reads its own part and ignores the rest. */
export type SeedData = Record<string, unknown>;
