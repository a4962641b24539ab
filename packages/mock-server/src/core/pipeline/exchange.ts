/**
 * The pipeline's one contract. A request travels as an `Exchange` through a list of `Stage`s, each
 * `(ex) => void | Promise<void>`. A stage reads what earlier stages found, adds what it finds, and stops the request
 * in one way: it throws. A `ProblemError` (`stageProblem`) is rendered by the dispatcher with `problemAnswer` (the
 * one problem renderer), in the culture and with the headers known at that point; an `Answered` carries a finished
 * response (a CORS preflight, a developer control, an idempotent replay, a dropped connection, a request handed to
 * a mounted server). The answering stage (`answer`: the section
 * handlers; a proxy may put an upstream there) sets `exchange.response`; the stages after it check and finish it.
 * The list of stages, in order, is `pipeline/index.ts`.
 */
import type { OperationSpec } from "../document.ts";
import { type ProblemError, problemResponse } from "../problems.ts";
import type { MockSession } from "../session.ts";
import type { AuthInfo, Culture, MockRequest, MockResponse, OperationHandler } from "../types.ts";

/**
 * One stage of the pipeline. It stops the request by throwing (a `ProblemError` or an `Answered`). A stage marked
 * `always` (`always(stage)`) also runs after a stop, on the response the stop made: the accounting and the error
 * formats apply to every answer.
 */
export type Stage<E extends Exchange = Exchange> = ((exchange: E) => void | Promise<void>) & {
  readonly always?: true;
};

/** `stage`, run after every answer, a stopped request's too; it must not wait (it returns nothing). */
export function always<E extends Exchange>(stage: (exchange: E) => void): Stage<E> {
  return Object.assign(stage, { always: true as const });
}

/** Thrown by a stage that answers the request itself; the dispatcher sends `response` as it is. */
export class Answered {
  readonly response: MockResponse;
  constructor(response: MockResponse) {
    this.response = response;
  }
}

/** An operation of the document with the section handler that implements it (none: 501). */
export interface Route {
  op: OperationSpec;
  handler: OperationHandler | undefined;
  /** The OAuth token endpoint (RFC 6749): answers by OAuth's rules, not the document's Accept, auth and body. */
  oauth: boolean;
}

/**
 * What the stages read of the request URL, as WHATWG URL parsing gives it: parsed once per distinct URL string
 * (`targetOf` in preamble) and shared by every request with that string, so it holds strings only.
 */
export interface Target {
  readonly origin: string;
  /** The path, percent-encoded as WHATWG URL parsing leaves it. */
  readonly pathname: string;
  /** The query with its `?`, or "" (none). */
  readonly search: string;
}

const NO_TARGET: Target = { origin: "http://mock.invalid", pathname: "/", search: "" };
const NO_QUERY: Readonly<Record<string, string | string[]>> = Object.freeze({});

/**
 * One request on its way through the stages. Every field exists from the start (its shape never changes); the
 * comment names the stage that fills it in.
 */
export class Exchange {
  readonly request: MockRequest;
  /** Upper-cased request method (HEAD stays HEAD; the router serves it from GET). */
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly origin: string | undefined;
  readonly logId: string;
  /** preamble: the request target's origin, path and query. */
  target: Target = NO_TARGET;
  /** preamble: the path below the base path (the problem's `instance`). */
  pathname: string | undefined = undefined;
  /** preamble: the negotiated culture (problems before it are in the default culture). */
  culture: Culture;
  /** preamble: the mock session's id. */
  sessionId = "default";
  /** routing: the session (created from the seed on first use). */
  session: MockSession | undefined = undefined;
  /** routing: the operation and its handler. */
  route: Route | undefined = undefined;
  /** routing: the path's template, e.g. `/shop/v1/cart/{cartId}`. */
  template = "";
  /** routing: decoded path parameters. */
  params: Record<string, string> = {};
  /** routing: the session clock's time when the request arrived. */
  now = 0;
  /** rate-limit: the RateLimit-* headers every later answer carries. */
  rateHeaders: Record<string, string> = {};
  /** authentication: the caller (null: anonymous, or a signed link). */
  auth: AuthInfo | null = null;
  /** input: the query parameters as a record (none sent: an empty one). */
  query: Readonly<Record<string, string | string[]>> = NO_QUERY;
  /** input: the Idempotency-Key of a write (null: none). */
  idempotencyKey: string | null = null;
  /** input: the parsed, validated body. */
  body: unknown = undefined;
  /** idempotency: the store scope of a keyed write, to complete once answered. */
  idempotencyScope: string | null = null;
  /** answer: the response (the stages after it check and finish it); a stop's response after a stop. */
  response: MockResponse | undefined = undefined;
  /** The dispatcher: a stage stopped the request (only the `always` stages ran after it). */
  stopped = false;
  #url: URL | undefined = undefined;
  #sent: string | undefined = undefined;

  constructor(request: MockRequest, logId: string, culture: Culture) {
    this.request = request;
    this.method = request.method.toUpperCase();
    this.headers = request.headers;
    this.origin = request.headers.origin;
    this.logId = logId;
    this.culture = culture;
  }

  /**
   * The request URL as a `URL`, made on first use: most requests need only `target` (a URL and its `searchParams`
   * cost more than the rest of a cached discovery request). A stage that answers from another URL (the proxy) sets it.
   */
  get url(): URL {
    this.#url ??= new URL(this.request.url);
    return this.#url;
  }
  set url(url: URL) {
    this.#url = url;
  }

  /** The request target as sent, path and query (what the HTTP request line carries), before any parsing. */
  get sent(): string {
    if (this.#sent === undefined) {
      const url = this.request.url;
      const start = url.indexOf("/", url.indexOf("//") + 2);
      this.#sent = start < 0 ? "/" : url.slice(start);
    }
    return this.#sent;
  }

  /** The matched operation (stages after routing only). */
  get op(): OperationSpec {
    if (!this.route) throw new Error("No operation matched yet: this stage runs after routing.");
    return this.route.op;
  }

  /** The request's session (stages after routing only). */
  get mockSession(): MockSession {
    if (!this.session) throw new Error("No session yet: this stage runs after routing.");
    return this.session;
  }
}

/**
 * The one rendering of a problem as the exchange's answer (problem+json, RFC 9457): in the culture, with the path
 * as `instance` and the rate headers known at that point. Without CORS: `finish` adds it to an answer, the
 * dispatcher to a stop's.
 */
export function problemAnswer(ex: Exchange, problem: ProblemError): MockResponse {
  return problemResponse(problem.slug, ex.culture, ex.logId, undefined, {
    ...(ex.pathname !== undefined ? { instance: ex.pathname } : {}),
    headers: { ...ex.rateHeaders, ...problem.headers },
    detail: problem.detail,
    errors: problem.errors,
    extensions: problem.extensions,
    status: problem.status,
  });
}
