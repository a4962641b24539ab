/**
 * `@entrada/mock-server/msw`: the mock as msw handlers for Node test suites (`setupServer`). Response validation
 * (`validateResponses`) and custom documents work here: this entry passes the run-time schema compiler. In a
 * browser use `@entrada/mock-server/browser` (precompiled validators only, no `new Function`).
 */
import type { RequestHandler } from "msw";
import { ajvSchemaCompiler } from "../compiler/ajv.ts";
import { bridgeMock, type EntradaMsw, type MockHandlersOptions } from "./bridge.ts";

export { type EntradaMsw, type MockHandlersOptions, toMockRequest } from "./bridge.ts";

/**
 * The msw handler(s) for the Entrada mock.
 * @example const server = setupServer(...createMockHandlers({ baseUrl: "https://api.entrada.dev" }));
 */
export function createMockHandlers(options: MockHandlersOptions): RequestHandler[] {
  return createMock(options).handlers;
}

/**
 * The msw handlers plus the engine behind them.
 * @example
 * const mock = createMock({ baseUrl: "https://api.entrada.dev" });
 * const server = setupServer(...mock.handlers);
 * afterEach(() => mock.reset());
 */
export function createMock(options: MockHandlersOptions): EntradaMsw {
  return bridgeMock({ schemaCompiler: ajvSchemaCompiler, ...options });
}
