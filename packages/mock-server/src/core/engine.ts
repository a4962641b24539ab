/**
 * The mock's engine: platform-free (no node:, no DOM). Transports hand it a MockRequest and send back the
 * MockResponse it returns. `MockCore` owns the compiled document, the sessions (`sessions.ts`) and the event
 * listeners (`events.ts`), and builds the request pipeline (`pipeline/index.ts`, the list of stages a request goes
 * through, in order) with the services its stages need; `respond` runs it. No stage calls back into the engine
 * (`bench/walk.mjs` traces a request, `test/core/walk.test.ts` keeps it so).
 */

import type { LinkServices } from "./context.ts";
import { controlAnswerer } from "./controls/index.ts";
import type { ControlServices } from "./controls/services.ts";
import { DEFAULT_CULTURE } from "./culture.ts";
import { compileOperations, type OpenApiDocument, type OperationSpec } from "./document.ts";
import { type ErrorReporter, type EventListener, EventListeners } from "./events.ts";
import { logId } from "./ids.ts";
import { LinkSigner } from "./links.ts";
import { DEMO_CLIENTS } from "./oauth.ts";
import type { MockCoreOptions } from "./options.ts";
import type { ResponseViolation } from "./pipeline/check-response.ts";
import { runStages, stopAnswer } from "./pipeline/dispatch.ts";
import { Exchange, type Route, type Stage } from "./pipeline/exchange.ts";
import { type PipelineServices, requestPipeline, type TransportServices } from "./pipeline/index.ts";
import { type ProblemOptions, problemResponse, stageProblem } from "./problems.ts";
import { Router } from "./router.ts";
import type { SectionModule } from "./section.ts";
import { handlerFor } from "./section.ts";
import type { EmittedEvent, MockSession } from "./session.ts";
import { Sessions } from "./sessions.ts";
import type {
  ControlRoute,
  Culture,
  ErrorFormat,
  MockRequest,
  MockResponse,
  OperationHandler,
  SeedData,
} from "./types.ts";
import { needsCompiler, Validator } from "./validation.ts";

export type { MockCoreOptions } from "./options.ts";

const TOKEN_OPERATION = "createToken";

export class MockCore implements ControlServices {
  readonly document: OpenApiDocument;
  readonly operations: OperationSpec[];
  readonly router = new Router<Route>();
  readonly validator: Validator;
  readonly sections: SectionModule[];
  readonly controlRoutes = new Router<{ section: SectionModule | null; route: ControlRoute }>();
  readonly responseViolations: ResponseViolation[] = [];
  readonly options: Required<
    Omit<MockCoreOptions, "onEvent" | "basePath" | "onError" | "controls" | "linkKey" | "schemaCompiler">
  > &
    Pick<MockCoreOptions, "onEvent" | "basePath" | "onError" | "controls">;
  /** Signs and verifies the asset links this engine hands out. */
  private readonly signer: LinkSigner;
  /** What a handler context needs for links: the mount path and the signer. */
  readonly links: LinkServices;
  /** The mock sessions, created from the seed on first use. */
  readonly sessions: Sessions;
  /** Who hears of each published webhook event (the delivery queue among them). */
  readonly events: EventListeners;
  /** Where unexpected errors go (`onError`, else the console). */
  private readonly reportError: ErrorReporter;
  private readonly operationsById = new Map<string, OperationSpec>();
  /** Sections that render the engine's errors for their paths in their own format. */
  private readonly errorFormats: ErrorFormat[];
  /** Milliseconds the core took to compile the document (routes and operation specs). */
  readonly startupMs: number;
  /** What the pipeline's stages are built with. */
  private readonly services: PipelineServices;
  /** The request pipeline, in the order a request takes it (see `pipeline/exchange.ts` for the contract). */
  readonly stages: readonly Stage[];

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
    this.signer = new LinkSigner(options.linkKey);
    this.reportError = options.onError ?? ((error: unknown) => console.error(error));
    this.events = new EventListeners(this.reportError);
    this.sessions = new Sessions({
      sections: options.sections,
      seed: this.options.seed,
      clients: this.options.clients,
      limits: {
        idempotencyTtlMs: this.options.idempotencyTtlSeconds * 1000,
        maxIdempotencyKeys: this.options.maxIdempotencyKeys,
        maxTokens: this.options.maxTokens,
      },
      now: this.options.now,
      randomSeed: this.options.randomSeed,
      maxSessions: this.options.maxSessions,
      maxRetainedRecords: this.options.maxRetainedRecords,
    });
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
      this.router.add(op.method, op.template, {
        op,
        handler: handlers.get(op.operationId),
        oauth: op.operationId === TOKEN_OPERATION,
      });
    }
    if (options.onEvent) this.events.add(options.onEvent);
    this.links = { mountPath: this.mountPath, signer: this.signer };
    this.services = {
      mountPath: this.mountPath,
      errorFormats: this.errorFormats,
      router: this.router,
      sessions: this.sessions,
      control: controlAnswerer(this),
      rateLimit: this.options.rateLimit,
      signer: this.signer,
      links: this.links,
      validator: this.validator,
      maxBodyBytes: this.options.maxBodyBytes,
      events: this.events,
      onError: this.reportError,
      tokenTtlSeconds: this.options.tokenTtlSeconds,
      document: this.document,
      responseChecks: this.options.validateResponses
        ? {
            document: this.document,
            operations: this.operations,
            violations: this.responseViolations,
            mode: this.options.validateResponses,
          }
        : undefined,
    };
    this.stages = requestPipeline(this.services);
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
    return `${baseUrl}${path}?${this.signer.query(path, nowMs, session)}`;
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

  operation(operationId: string): OperationSpec | undefined {
    return this.operationsById.get(operationId);
  }

  /** Subscribes to emitted webhook events; returns an unsubscribe function. */
  onEvent(listener: EventListener): () => void {
    return this.events.add(listener);
  }

  /** Hands an emitted event to the listeners (the webhook delivery worker among them). */
  readonly dispatchEvent = (event: EmittedEvent, session: MockSession): void => {
    this.events.dispatch(event, session);
  };

  /** The session with this id, created from the seed on first use. */
  session(id = "default"): MockSession {
    return this.sessions.get(id);
  }

  /** Records all sessions keep (see `maxRetainedRecords`). */
  get retainedRecords(): number {
    return this.sessions.retainedRecords;
  }

  listSessions(): MockSession[] {
    return this.sessions.list();
  }

  dropSession(id: string): boolean {
    return this.sessions.drop(id);
  }

  /** Resets one session (or all) to its seed. */
  reset(sessionId?: string, seed?: SeedData): void {
    this.sessions.reset(sessionId, seed);
  }

  /** Answers one request. Never rejects: an unexpected failure is a logged 500 problem. */
  handle(request: MockRequest): Promise<MockResponse> {
    const response = this.respond(request);
    return response instanceof Promise ? response : Promise.resolve(response);
  }

  /**
   * Answers one request, at once when no stage had to wait (most requests: a transport sends the answer in the same
   * turn of the event loop), else as a promise. Never throws or rejects: an unexpected failure is a logged 500.
   */
  respond(request: MockRequest): MockResponse | Promise<MockResponse> {
    return this.run(this.stages, request);
  }

  /**
   * `respond` over the pipeline with a transport's own stages (`TransportServices`: the node server's admin guard
   * and mounted servers), built once.
   */
  responder(transport: TransportServices): (request: MockRequest) => MockResponse | Promise<MockResponse> {
    const stages = requestPipeline({ ...this.services, transport });
    return (request) => this.run(stages, request);
  }

  private run(stages: readonly Stage[], request: MockRequest): MockResponse | Promise<MockResponse> {
    try {
      const response = runStages(stages, new Exchange(request, logId(Date.now()), DEFAULT_CULTURE));
      return response instanceof Promise
        ? response.catch((error: unknown) => this.failed(request, error))
        : response;
    } catch (error) {
      return this.failed(request, error);
    }
  }

  /**
   * An unexpected failure: logged, answered with a 500 problem rendered like a stage's, on a fresh exchange (what
   * the failed one found may be half made).
   */
  private failed(request: MockRequest, error: unknown): MockResponse {
    this.reportError(error, `${request.method} ${request.url}`);
    return stopAnswer(
      new Exchange(request, logId(Date.now()), DEFAULT_CULTURE),
      stageProblem("internal-error"),
    );
  }

  /**
   * Builds a localized problem+json response (RFC 9457), for code that embeds the engine; the pipeline renders its
   * own with `problemAnswer` (`pipeline/exchange.ts`).
   */
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
