/**
 * The run-time schema compiler: Ajv (draft 2020-12, the contract's dialect) with ajv-formats. It generates code
 * and runs it with `new Function`, so it never goes into the browser build (a strict CSP without 'unsafe-eval'
 * forbids it); the Node entries inject it into the engine (`schemaCompiler`). The generator of the precompiled
 * validators (`scripts/generate-validators.ts`) uses the same settings, so both paths validate alike.
 */
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { OpenApiDocument } from "../core/document.ts";
import { DOC_ID, type SchemaCompiler, type SchemaCompilerFactory } from "../core/validation.ts";

/** An Ajv instance with the mock's settings (`source`: keep the generated code for standalone output). */
export function newAjv(coerce: boolean, source = false): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    coerceTypes: coerce ? "array" : false,
    validateSchema: false,
    logger: false,
    ...(source ? { code: { source: true, esm: true } } : {}),
    // OpenAPI's own keywords are annotations for validation purposes.
    keywords: ["example", "discriminator", "xml", "externalDocs"],
  });
  addFormats(ajv);
  return ajv;
}

/**
 * The compiler to pass as `schemaCompiler` where `new Function` is allowed (Node, tests): response validation
 * (`validateResponses`) and custom documents need it.
 * @example createEntradaMock({ validateResponses: "strict", schemaCompiler: ajvSchemaCompiler })
 */
export const ajvSchemaCompiler: SchemaCompilerFactory = (document: OpenApiDocument): SchemaCompiler => {
  const plain = newAjv(false);
  const coercing = newAjv(true);
  plain.addSchema(document as object, DOC_ID);
  coercing.addSchema(document as object, DOC_ID);
  return { compile: (schema, { coerce }) => (coerce ? coercing : plain).compile(schema) };
};
