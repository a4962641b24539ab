/**
 * `@entrada/mock-server/compiler`: the run-time schema compiler (Ajv) for `createEntradaMock({ schemaCompiler })`.
 * The Node entries (`/node`, `/msw`, the CLI) already pass it; the browser build leaves it out (strict CSP).
 */

export type { SchemaCompiler, SchemaCompilerFactory } from "../core/validation.ts";
export { MockConfigError } from "../core/validation.ts";
export { ajvSchemaCompiler } from "./ajv.ts";
