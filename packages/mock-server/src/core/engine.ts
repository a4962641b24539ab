/**
 * The mock's engine: platform-free (no node:, no DOM). Transports hand it a MockRequest and send back the
 * MockResponse it returns. `MockCore` owns the compiled document, the sessions and the event listeners; `dispatch`
 * runs the request pipeline, whose stages live in `pipeline/`, numbered in the order a request takes them:
 * 1-preamble (target, culture, mock session, duplicated headers) → 2-routing (preflight, 404/405) → 3-rate-limit →
 * 4-faults → 5-token-endpoint → 6-negotiation (406) → 7-authentication → 8-input (parameters, Idempotency-Key,
 * body) → 9-idempotency (replay / 409 / 422) → 10-invoke (context, handler, response check) → 9-idempotency
 * (store). `pipeline/request.ts` is the state they share; `problems.ts` renders every problem.
 */

import { handleControl } from "./controls.ts";
import { cors, isPreflight } from "./cors.ts";
import { DEFAULT_CULTURE } from "./culture.ts";
import { compileOperations, type OpenApiDocument, type OperationSpec } from "./document.ts";
import { ulid } from "./ids.ts";
import { LinkSigner } from "./links.ts";
import type { MockCoreOptions } from "./options.ts";
import {
  duplicatedHeaderProblem,
  mockSessionId,
  parseTarget,
  requestCulture,
} from "./pipeline/1-preamble.ts";
import { preflight, Router, routeProblem } from "./pipeline/2-routing.ts";
import { countRequest, type RateLimitConfig, rateLimitedResponse } from "./pipeline/3-rate-limit.ts";
import { injectFault } from "./pipeline/4-faults.ts";
import { asOAuthError, TOKEN_PATH, tokenResponse } from "./pipeline/5-token-endpoint.ts";
import { notAcceptable } from "./pipeline/6-negotiation.ts";
import { authenticateRequest, DEMO_CLIENTS } from "./pipeline/7-authentication.ts";
import { idempotencyKeyOf, invalidParameters, readBody } from "./pipeline/8-input.ts";
import { beginWrite, completeWrite } from "./pipeline/9-idempotency.ts";
import { invokeHandler } from "./pipeline/10-invoke.ts";
import type { OperationRequest } from "./pipeline/request.ts";
import {
  errorFormatFor,
  ProblemError,
  type ProblemOptions,
  problemResponse,
  reformatProblem,
} from "./problems.ts";
import { handlerFor } from "./section.ts";
import { type EmittedEvent, MockSession } from "./session.ts";
import { withinMount } from "./target.ts";
import type {
  ControlRoute,
  Culture,
  ErrorFormat,
  MockRequest,
  MockResponse,
  OperationHandler,
  SectionModule,
  SeedData,
} from "./types.ts";
import { needsCompiler, Validator } from "./validation.ts";

export type { MockCoreOptions } from "./options.ts";

/** What `dispatch` knows about a request when a stage throws its problem. */
interface StageState {
  culture: Culture;
  instance: string | undefined;
  rateHeaders: Record<string, string>;
}

interface Route {
  op: OperationSpec;
  handler: OperationHandler | undefined;
}

new TextDecoder("utf-8", { fatal: true });
const TOKEN_OPERATION = "createToken";

export class MockCore {
  readonly document: OpenApiDocument;
  readonly operations: OperationSpec[];
  readonly router = new Router<Route>();
  readonly validator: Validator;
  readonly sections: SectionModule[];
  readonly controlRoutes = new Router<{ section: SectionModule | null; route: ControlRoute }>();
  readonly responseViolations: Array<{ operationId: string; status: number; errors: string[] }> = [];
  readonly options: Required<
    Omit<MockCoreOptions, "onEvent" | "basePath" | "onError" | "controls" | "linkKey" | "schemaCompiler">
  > &
    Pick<MockCoreOptions, "onEvent" | "basePath" | "onError" | "controls">;
  /** Signs and verifies the asset links this engine hands out. */
  private readonly links: LinkSigner;
  private readonly sessions = new Map<string, MockSession>();
  private readonly eventListeners = new Set<(event: EmittedEvent, session: MockSession) => void>();
  private readonly operationsById = new Map<string, OperationSpec>();
  /** Sections that render the engine's errors for their paths in their own format. */
  private readonly errorFormats: ErrorFormat[];
  /** Milliseconds the core took to compile the document (routes and operation specs). */
  readonly startupMs: number;

  constructor(options: MockCoreOptions) {
    const started = performance.now();
    this.options = {
      seed: {},
      precompiledValidators: false,
      clients: DEMO_CLIENTS,
      tokenTtlSeconds: 3600,
      idempotencyTtlSeconds: 86_400,
      rateLimit: { limit: 6000, windowSeconds: 60 },
      validateResponses: false,
      maxBodyBytes: 1024 * 1024,
      now: Date.now,
      randomSeed: 1,
      maxSessions: 500,
      maxIdempotencyKeys: 10_000,
      maxTokens: 20_000,
      maxRetainedRecords: 100_000,
      ...options,
    };
    this.links = new LinkSigner(options.linkKey);
    this.document = options.document;
    this.sections = options.sections;
    this.validator = new Validator(options.document, {
      precompiled: options.precompiledValidators === true,
      compiler: options.schemaCompiler,
    });
    if (this.options.validateResponses && !this.validator.compilesAtRunTime)
      throw needsCompiler("Response validation (`validateResponses`)");
    this.operations = compileOperations(options.document);
    this.errorFormats = options.sections.flatMap((s) => (s.errorFormat ? [s.errorFormat] : []));
    const handlers = new Map<string, OperationHandler>();
    for (const section of options.sections) {
      for (const id of Object.keys(section.handlers)) {
        const handler = handlerFor(section, id);
        if (handler) handlers.set(id, handler);
      }
      for (const route of section.controls ?? [])
        this.controlRoutes.add(route.method, route.path, { section, route });
    }
    for (const route of options.controls ?? [])
      this.controlRoutes.add(route.method, route.path, { section: null, route });
    for (const op of this.operations) {
      this.operationsById.set(op.operationId, op);
      this.router.add(op.method, op.template, { op, handler: handlers.get(op.operationId) });
    }
    if (options.onEvent) this.eventListeners.add(options.onEvent);
    this.startupMs = performance.now() - started;
  }

  /** Operation ids of the document that no section module implements. */
  get unimplemented(): string[] {
    const implemented = new Set(this.sections.flatMap((s) => Object.keys(s.handlers)));
    implemented.add(TOKEN_OPERATION);
    return this.operations.map((o) => o.operationId).filter((id) => !implemented.has(id));
  }

  /**
   * A signed link to an asset `path` (relative to `baseUrl`, e.g. `/assets/v1/tickets/tkt_1.pdf`), valid for 24 h
   * from `nowMs` on the mock clock.
   */
  signedLink(baseUrl: string, path: string, nowMs: number, session?: string): string {
    return `${baseUrl}${path}?${this.links.query(path, nowMs, session)}`;
  }

  /** The base path the API is mounted below (`/api`), or "" at the root. */
  get mountPath(): string {
    const basePath = this.options.basePath;
    return basePath && basePath !== "/" ? basePath : "";
  }

  /** Where the API is served for a request from `origin`: the origin plus the base path, no trailing slash. */
  baseUrlFor(origin: string): string {
    return origin + this.mountPath;
  }

  /** A request path relative to the base path, or null when it lies outside it. */
  private withinMount(path: string): string | null {
    return withinMount(this.mountPath, path);
  }

  operation(operationId: string): OperationSpec | undefined {
    return this.operationsById.get(operationId);
  }

  /** Subscribes to emitted webhook events; returns an unsubscribe function. */
  onEvent(listener: (event: EmittedEvent, session: MockSession) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Hands an emitted event to the listeners (the webhook delivery worker among them). */
  dispatchEvent(event: EmittedEvent, session: MockSession): void {
    for (const listener of this.eventListeners) {
      try {
        listener(event, session);
      } catch (error) {
        (this.options.onError ?? ((x: unknown) => console.error(x)))(error, `event:${event.type}`);
      }
    }
  }

  /** The session with this id, created from the seed on first use. */
  session(id = "default"): MockSession {
    let session = this.sessions.get(id);
    if (!session) {
      if (this.sessions.size >= this.options.maxSessions) {
        let oldest: MockSession | null = null;
        for (const s of this.sessions.values())
          if (s.id !== "default" && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
        if (oldest) this.dropSession(oldest.id);
      }
      session = new MockSession(
        id,
        this.sections,
        this.options.seed,
        this.options.clients,
        {
          idempotencyTtlMs: this.options.idempotencyTtlSeconds * 1000,
          maxIdempotencyKeys: this.options.maxIdempotencyKeys,
          maxTokens: this.options.maxTokens,
        },
        this.options.now,
        this.options.randomSeed,
      );
      this.sessions.set(id, session);
    }
    return session;
  }

  /** Records all sessions keep (see `maxRetainedRecords`). */
  get retainedRecords(): number {
    return this.retained;
  }

  private retained = 0;

  /**
   * Re-weighs a session after a request and, past `maxRetainedRecords`, drops the least recently used other
   * sessions ("default" stays; it is bounded by the per-session caps).
   */
  private account(session: MockSession): void {
    let weight = session.idempotency.size + session.tokens.size;
    for (const section of this.sections) {
      if (section.retained) weight += section.retained(session.world[section.name]);
    }
    this.retained += weight - session.weight;
    session.weight = weight;
    while (this.retained > this.options.maxRetainedRecords) {
      let oldest: MockSession | null = null;
      for (const s of this.sessions.values())
        if (s !== session && s.id !== "default" && (!oldest || s.lastUsed < oldest.lastUsed)) oldest = s;
      if (!oldest) break;
      this.dropSession(oldest.id);
    }
  }

  listSessions(): MockSession[] {
    return [...this.sessions.values()];
  }

  dropSession(id: string): boolean {
    const session = this.sessions.get(id);
    if (session) this.retained -= session.weight;
    return this.sessions.delete(id);
  }

  /** Resets one session (or all) to its seed. */
  reset(sessionId?: string, seed?: SeedData): void {
    if (sessionId === undefined) {
      for (const s of this.sessions.values()) s.reset(seed);
      return;
    }
    this.session(sessionId).reset(seed);
  }

  /** Whether the request targets the OAuth token endpoint (below the base path). */
  private isTokenRequest(request: MockRequest): boolean {
    try {
      return this.withinMount(new URL(request.url).pathname) === TOKEN_PATH;
    } catch {
      return false;
    }
  }

  /** Answers one request. Never throws: an unexpected failure is a logged 500 problem. */
  async handle(request: MockRequest): Promise<MockResponse> {
    try {
      const response = await this.dispatch(request);
      if (
        response.status === 400 &&
        response.headers["content-type"] === "application/problem+json" &&
        this.isTokenRequest(request)
      )
        return asOAuthError(response, request.headers.origin);
      if (
        this.errorFormats.length > 0 &&
        response.status >= 400 &&
        response.headers["content-type"] === "application/problem+json"
      )
        return reformatProblem(this.errorFormats, this.mountPath, request, response);
      return response;
    } catch (error) {
      (this.options.onError ?? ((e: unknown) => console.error(e)))(error, `${request.method} ${request.url}`);
      return this.problem(
        "internal-error",
        DEFAULT_CULTURE,
        `log_${ulid(Date.now())}`,
        request.headers.origin,
      );
    }
  }

  /**
   * The request pipeline. Each stage either answers (the first problem wins, so this order is part of the
   * contract) or lets the request through: target → culture → mock session → duplicated headers → CORS preflight →
   * developer controls → route (404/405) → rate limit → faults → token endpoint → 406 → authentication →
   * parameters → Idempotency-Key → body → idempotency → handler → idempotency store.
   */
  private async dispatch(request: MockRequest): Promise<MockResponse> {
    const logId = `log_${ulid(Date.now())}`;
    const origin = request.headers.origin;
    // What a stage's problem is rendered with, filled in as the request goes through the stages.
    const known: StageState = { culture: DEFAULT_CULTURE, instance: undefined, rateHeaders: {} };
    try {
      return await this.runStages(request, logId, known);
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error;
      return problemResponse(error.slug, known.culture, logId, origin, {
        ...(known.instance !== undefined ? { instance: known.instance } : {}),
        headers: { ...known.rateHeaders, ...error.headers },
        detail: error.detail,
        errors: error.errors,
        extensions: error.extensions,
        status: error.status,
      });
    }
  }

  /** The stages in order; a stage that finds a problem throws it (`stageProblem`), `dispatch` renders it. */
  private async runStages(request: MockRequest, logId: string, known: StageState): Promise<MockResponse> {
    const headers = request.headers;
    const origin = headers.origin;

    // Before routing: problems here answer in the default culture until Accept-Language is read.
    const url = parseTarget(request.url, logId, origin);
    const pathname = this.withinMount(url.pathname);
    if (pathname === null)
      return this.problem("not-found", DEFAULT_CULTURE, logId, origin, { instance: url.pathname });
    known.instance = pathname;
    const method = request.method.toUpperCase();
    // A section that owns the path may negotiate its own way (the BI feed); its rule covers the engine's errors.
    const own =
      this.errorFormats.length > 0 ? errorFormatFor(this.errorFormats, pathname)?.culture : undefined;
    if (own) known.culture = own(undefined);
    const negotiated = requestCulture(headers, logId, origin, pathname);
    const culture = own ? own(headers["accept-language"]) : negotiated;
    known.culture = culture;
    const sessionId = mockSessionId(headers, url, pathname, culture, logId, origin);
    duplicatedHeaderProblem(request, culture, logId, origin, pathname);
    if (isPreflight(method, headers))
      return preflight(this.router, pathname, origin, headers, logId, culture);

    // Developer controls (`/__mock`) bypass routing, rate limiting and the operation stages.
    if (pathname === "/__mock" || pathname.startsWith("/__mock/")) {
      const session = this.session(sessionId);
      session.lastUsed = session.clock.now();
      const answer = cors(await handleControl(this, session, request, url, pathname, culture, logId), origin);
      this.account(session);
      return answer;
    }

    // Routing, then the per-client rate limit (counted only for requests that reach an operation).
    const match = this.router.match(method, pathname);
    if (match.kind !== "found") return routeProblem(match, method, pathname, culture, logId, origin);
    const { op, handler } = match.route;
    const session = this.session(sessionId);
    const now = session.clock.now();
    session.lastUsed = now;
    const limits = this.options.rateLimit;
    const rateHeaders = countRequest(limits, session, headers.authorization ?? "anonymous", now);
    if (rateHeaders === null)
      return rateLimitedResponse(limits as RateLimitConfig, session, culture, logId, origin, pathname, now);
    known.rateHeaders = rateHeaders;
    const rq: OperationRequest = {
      request,
      method,
      op,
      template: match.template,
      now,
      session,
      url,
      params: match.params,
      headers,
      body: undefined,
      culture,
      auth: null,
      logId,
      origin,
      pathname,
      rateHeaders,
    };

    // The operation stages, in the order that decides which problem wins when several apply.
    if (session.faults.length > 0) {
      const fault = await injectFault(rq);
      if (fault !== null) return fault;
    }
    if (op.operationId === TOKEN_OPERATION) {
      const granted = tokenResponse(
        session,
        request,
        logId,
        origin,
        rateHeaders,
        now,
        this.options.tokenTtlSeconds,
      );
      this.account(session);
      return granted;
    }
    notAcceptable(rq);
    rq.auth = authenticateRequest(rq, this.links, this.mountPath);
    invalidParameters(this.validator, rq);
    const key = idempotencyKeyOf(rq);
    readBody(this.validator, this.options.maxBodyBytes, rq);
    const scope = beginWrite(rq, key);
    // A replay answers with the stored response (an answer, not a problem).
    if (scope !== null && typeof scope !== "string") return scope.replay;

    // The handler, then the idempotency store (HEAD answers like GET, without the body).
    const response = await invokeHandler(this, op, handler, rq);
    if (method === "HEAD") response.body = null;
    if (scope !== null) completeWrite(rq, scope, response);
    if (op.write || scope !== null) this.account(session);
    return response;
  }

  /** Builds a localized problem+json response (RFC 9457). */
  problem(
    slug: string,
    culture: Culture,
    logId: string,
    origin: string | undefined,
    options: ProblemOptions = {},
  ): MockResponse {
    return problemResponse(slug, culture, logId, origin, options);
  }
}

/** Creates the engine. */
export function createMockCore(options: MockCoreOptions): MockCore {
  return new MockCore(options);
}
