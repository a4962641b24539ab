/** The engine's options (`createEntradaMock` and the Node/msw entries fill most of them in). */

import type { OpenApiDocument } from "./document.ts";
import type { ClientConfig } from "./oauth.ts";
import type { SectionModule } from "./section.ts";
import type { EmittedEvent, MockSession } from "./session.ts";
import type { ControlRoute, SeedData } from "./types.ts";
import type { SchemaCompilerFactory } from "./validation.ts";

export interface MockCoreOptions {
  /** The bundled OpenAPI 3.1 document (`@entrada/openapi/openapi.json`). */
  document: OpenApiDocument;
  /** Section modules; their handlers are bound by operationId. */
  sections: SectionModule[];
  /**
   * Request validators precompiled from the bundled document (`src/generated/`, no `new Function`, strict-CSP
   * safe). Set by `createEntradaMock` when `document` is the bundled one; a custom document compiles at run time.
   */
  precompiledValidators?: boolean;
  /**
   * The run-time schema compiler (`ajvSchemaCompiler` from `@entrada/mock-server/compiler`) for what is not
   * precompiled: response validation and custom documents. The Node entries pass it; without it (the browser
   * build) asking for either throws a `MockConfigError` here, at construction.
   */
  schemaCompiler?: SchemaCompilerFactory;
  /** Seed data for every new session (each module reads its own key). */
  seed?: SeedData;
  /** OAuth clients; defaults to the demo clients. */
  clients?: ClientConfig[];
  /** Access-token lifetime in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** How long idempotency keys are kept, in seconds (default 24 h). */
  idempotencyTtlSeconds?: number;
  /** Requests per window per client and session; `false` turns limiting (and its headers) off. */
  rateLimit?: { limit: number; windowSeconds: number } | false;
  /**
   * Validate the mock's own responses against the document. "report" records violations
   * (`core.responseViolations`); "strict" also turns the response into a 500 naming them. Tests use "strict".
   */
  validateResponses?: false | "report" | "strict";
  /** Largest accepted request body (default 1 MiB). */
  maxBodyBytes?: number;
  /** Wall clock for new sessions (default Date.now). */
  now?: () => number;
  /** Seed of the per-session PRNG used by fault injection (default 1). */
  randomSeed?: number;
  /** Path prefix to strip before routing, e.g. "/api" when the mock is mounted below one. */
  basePath?: string;
  /** Called for every emitted webhook event (after the triggering request finished). */
  onEvent?: (event: EmittedEvent, session: MockSession) => void;
  /** Most sessions kept at once; the least recently used is dropped beyond it (default 500). */
  maxSessions?: number;
  /** Most Idempotency-Keys a session keeps (default 10 000); the oldest goes first beyond it. */
  maxIdempotencyKeys?: number;
  /** Most access and session tokens a session keeps (default 20 000); the oldest issued goes first beyond it. */
  maxTokens?: number;
  /**
   * Most records (carts, idempotency keys, tokens, webhook deliveries) all sessions together keep (default
   * 100 000, ≈ 1–2 KB each): beyond it the least recently used sessions other than "default" and the current one
   * are dropped. With the per-session caps this bounds the heap under any load (README: memory budget).
   */
  maxRetainedRecords?: number;
  /** Reports handler crashes (default: console.error). */
  onError?: (error: unknown, operationId: string) => void;
  /** Extra mock-only routes under `/__mock` that belong to no single section (e.g. the webhook delivery log). */
  controls?: ControlRoute[];
  /**
   * Key that signs asset links (`Ticket.ticketUrl`, `Order.receiptUrl`; the contract's `signedUrl` scheme).
   * Default: 32 random bytes per engine, so links from one mock instance do not open on another.
   */
  linkKey?: Uint8Array | string;
}
