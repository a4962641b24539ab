/**
 * @entrada/mock-server — a stateful, contract-validating mock of the Entrada API.
 * Platform-free entry: the engine and the default sections. Transports live in `/node`, `/msw`, `/browser`.
 */
import document from "@entrada/openapi/openapi.json" with { type: "json" };
import type { OpenApiDocument } from "./core/document.ts";
import { createMockCore, type MockCore, type MockCoreOptions } from "./core/engine.ts";
import { defaultControls, defaultSections } from "./sections/index.ts";
import { enqueueWebhookEvent } from "./sections/webhooks/index.ts";

export { CULTURES, DEFAULT_CULTURE, negotiateCulture } from "./core/culture.ts";
export type { OpenApiDocument, OperationSpec } from "./core/document.ts";
export { createMockCore, MockCore, type MockCoreOptions } from "./core/engine.ts";
export type { FaultKind, FaultRule } from "./core/faults.ts";
export { type CultureData, msg, registerCulture } from "./core/messages.ts";
export type { ClientConfig } from "./core/oauth.ts";
export { DEMO_CLIENTS } from "./core/oauth.ts";
export type { AdminGuard } from "./core/pipeline/admin-guard.ts";
export type { TransportServices } from "./core/pipeline/index.ts";
export type { Mount } from "./core/pipeline/mounts.ts";
export { PROBLEM_BASE, PROBLEMS } from "./core/problems.ts";
export type { SectionModule } from "./core/section.ts";
export {
  type ContextOf,
  defineSection,
  dynamicHandler,
  type Handler,
  type Handlers,
  type OperationId,
  type ResultOf,
} from "./core/section.ts";
export type { EmittedEvent, MockSession } from "./core/session.ts";
export type {
  AuthInfo,
  Clock,
  ControlRoute,
  Culture,
  HandlerResult,
  LocalizedText,
  MockRequest,
  MockResponse,
  MountedServer,
  OperationContext,
  OperationHandler,
  SeedData,
  World,
} from "./core/types.ts";
export {
  MockConfigError,
  type SchemaCompiler,
  type SchemaCompilerFactory,
} from "./core/validation.ts";
export { defaultControls, defaultSections } from "./sections/index.ts";
export { TEST_CARDS } from "./sections/shop/checkout.ts";
export { parseQuicode, quicodeFor } from "./sections/shop/quicode.ts";

/** The bundled contract the mock serves. */
export const entradaDocument = document as unknown as OpenApiDocument;

export type EntradaMockOptions = Partial<MockCoreOptions>;

/**
 * The Entrada mock engine with the bundled document and every section.
 * @example const core = createEntradaMock({ tokenTtlSeconds: 60 }); const res = await core.handle(request);
 */
export function createEntradaMock(options: EntradaMockOptions = {}): MockCore {
  const core = createMockCore({
    document: entradaDocument,
    sections: defaultSections,
    controls: defaultControls,
    ...options,
    precompiledValidators:
      options.precompiledValidators ??
      (options.document === undefined || options.document === entradaDocument),
  });
  // Every emitted event becomes a webhook message with one delivery per matching subscription.
  core.onEvent((event, session) => {
    if (session.world.webhooks) enqueueWebhookEvent(session.world, event, session.clock);
  });
  return core;
}
