import type { ErrorObject, ValidateFunction } from "ajv";
import { validators as coercingValidators } from "../generated/validators-coercing.js";
import { validators as plainValidators } from "../generated/validators-plain.js";
import type { OpenApiDocument, OperationSpec, ParamLocation } from "./document.ts";
import { formatMessage } from "./messages.ts";
import type { FieldError } from "./problems.ts";
import type { Culture } from "./types.ts";

/**
 * The validation core is platform-free and holds no schema compiler: it runs the validators precompiled from the
 * bundled contract (`src/generated/`, Ajv standalone code, no `new Function`, so it works under a strict CSP
 * without 'unsafe-eval'). Whatever needs a validator compiled at run time (response validation, a custom
 * document) takes a `SchemaCompiler` the caller injects: the Node entries (`/node`, the CLI, `/msw` for Node test
 * suites) pass the Ajv one from `../compiler/ajv.ts`; the browser entry never does.
 */
export const DOC_ID = "entrada-openapi.json";

export function refTo(pointer: string): string {
  return `${DOC_ID}#${pointer.split("/").map(encodeURIComponent).join("/")}`;
}

/** Compiles JSON Schemas (which may `$ref` the document as `DOC_ID`) into validators at run time. */
export interface SchemaCompiler {
  compile(schema: object, options: { coerce: boolean }): ValidateFunction;
}

/** Makes the run-time compiler for one document (called at most once per engine, on first need). */
export type SchemaCompilerFactory = (document: OpenApiDocument) => SchemaCompiler;

/** A configuration asks for something the engine cannot do without a run-time schema compiler. */
export class MockConfigError extends Error {
  override readonly name = "MockConfigError";
}

/** Why an engine without a compiler refuses `what` (the browser build's error for a strict-CSP-unsafe option). */
export function needsCompiler(what: string): MockConfigError {
  return new MockConfigError(
    `${what} needs schemas compiled at run time (Ajv's compiler evaluates generated code), which this build leaves ` +
      "out so it runs under a strict Content-Security-Policy without 'unsafe-eval'. It validates requests " +
      "against the bundled contract with precompiled validators only. Run the mock with Node " +
      "(`entrada-mock`, `@entrada/mock-server/node` or `/msw`), or pass `schemaCompiler` from " +
      "`@entrada/mock-server/compiler` to `createEntradaMock` where eval is allowed.",
  );
}

export const FORM = "application/x-www-form-urlencoded";

/** A location's parameters as one object schema (its `properties` named by the parameters). */
export interface ParamsSchema {
  type: "object";
  properties: Record<string, object>;
  required: string[];
  additionalProperties: boolean;
  patternProperties?: Record<string, object>;
}

/**
 * The schema one location's parameters are checked with (validated with type coercion), or null when there is
 * nothing to check there. Shared by the run-time compiler and the precompiled validators' generator.
 */
export function paramsSchema(op: OperationSpec, location: ParamLocation): ParamsSchema | null {
  const list = op.params.filter((p) => p.in === location);
  if (list.length === 0 && location !== "query") return null;
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const p of list) {
    // The engine negotiates Accept-Language and checks Authorization itself (RFC 9110 / RFC 6750).
    if (location === "header" && (p.name === "accept-language" || p.name === "authorization")) continue;
    properties[p.name] = p.schemaPointer ? { $ref: refTo(p.schemaPointer) } : {};
    if (p.required) required.push(p.name);
  }
  // The query parameter of an apiKey-in-query scheme (the signed link's `signature`) is checked by the engine.
  // A link signed inside a mock session carries it (`mockSession`, covered by the signature): the mock's own.
  if (location === "query" && op.security.signedUrl !== null) {
    properties[op.security.signedUrl] = { type: "string" };
    properties.mockSession = { type: "string" };
  }
  // Nothing left to check in this location (the engine handles Accept-Language and Authorization itself).
  if (Object.keys(properties).length === 0 && location !== "query") return null;
  return {
    type: "object",
    properties,
    required,
    // Unknown query parameters are contract violations; unknown headers are normal HTTP. An operation that
    // declares OData system query options (`$filter`, …) judges the other `$…` options itself (BI: `$expand`
    // is valid OData it does not implement → 501, not a 400 from here).
    additionalProperties: location !== "query",
    ...(location === "query" && list.some((p) => p.name.startsWith("$"))
      ? { patternProperties: { "^\\$": {} } }
      : {}),
  };
}

interface OperationValidators {
  params: Partial<Record<ParamLocation, ValidateFunction>>;
  /** The headers the header validator judges: only these are copied for it (a request carries many others). */
  headerNames: readonly string[];
  body: Map<string, ValidateFunction | null>;
}

export interface ValidatorOptions {
  /**
   * Use the validators precompiled from the bundled contract (`src/generated/validators-*.js`). Only for the
   * bundled document; a custom document needs `compiler`.
   */
  precompiled: boolean;
  /** The run-time compiler for what is not precompiled (response validators, custom documents), if any. */
  compiler?: SchemaCompilerFactory | undefined;
}

/**
 * Request (and, in the response-validation mode, response) validators. Each operation's validators
 * are looked up (or compiled) on its first request, so start-up stays flat however large the document grows.
 */
export class Validator {
  private readonly cache = new Map<string, OperationValidators>();
  private readonly responseCache = new Map<string, ValidateFunction>();
  private readonly precompiled: boolean;
  private readonly makeCompiler: (() => SchemaCompiler) | null;
  private compiler: SchemaCompiler | null = null;

  constructor(doc: OpenApiDocument, options: ValidatorOptions) {
    this.precompiled = options.precompiled;
    const factory = options.compiler;
    this.makeCompiler = factory ? () => factory(doc) : null;
    if (!this.precompiled && !this.makeCompiler) throw needsCompiler("A custom OpenAPI document");
  }

  /** Whether response validators can be made (they are always compiled at run time). */
  get compilesAtRunTime(): boolean {
    return this.makeCompiler !== null;
  }

  /** The run-time compiler as a `SchemaCompiler` (the contract checker's response and header schemas). */
  get schemaCompiler(): SchemaCompiler {
    return {
      compile: (schema, { coerce }) =>
        this.compile(schema, coerce, "Response validation (`validateResponses`)"),
    };
  }

  private compile(schema: object, coerce: boolean, what: string): ValidateFunction {
    if (!this.makeCompiler) throw needsCompiler(what);
    this.compiler ??= this.makeCompiler();
    return this.compiler.compile(schema, { coerce });
  }

  /** Whether a location has anything to validate for this operation (skips work on the hot path). */
  checks(op: OperationSpec, location: ParamLocation): boolean {
    return this.forOperation(op).params[location] !== undefined;
  }

  private forOperation(op: OperationSpec): OperationValidators {
    let v = this.cache.get(op.operationId);
    if (v) return v;
    v = { params: {}, headerNames: [], body: new Map() };
    const what = `Validating ${op.operationId} (not in the precompiled validators)`;
    for (const location of ["path", "query", "header"] as const) {
      const schema = paramsSchema(op, location);
      if (schema && location === "header") v.headerNames = Object.keys(schema.properties);
      if (schema)
        v.params[location] =
          (this.precompiled ? coercingValidators[`params ${op.operationId} ${location}`] : undefined) ??
          this.compile(schema, true, what);
    }
    for (const [media, pointer] of op.body?.media ?? []) {
      const key = `body ${media} ${pointer}`;
      const pre = this.precompiled ? (media === FORM ? coercingValidators : plainValidators)[key] : undefined;
      v.body.set(
        media,
        pointer ? (pre ?? this.compile({ $ref: refTo(pointer) }, media === FORM, what)) : null,
      );
    }
    this.cache.set(op.operationId, v);
    return v;
  }

  /** Validates (and coerces a copy of) the parameters of one location; returns errors with pointers. */
  params(
    op: OperationSpec,
    location: ParamLocation,
    values: Record<string, unknown>,
    culture: Culture,
  ): FieldError[] {
    const validators = this.forOperation(op);
    const validate = validators.params[location];
    if (!validate) return [];
    // Headers: the declared ones only (the schema lets the others pass, so leaving them out changes no answer).
    const copy = location === "header" ? picked(values, validators.headerNames) : { ...values };
    if (validate(copy)) return [];
    return mapErrors(validate.errors ?? [], `/${location}`, culture);
  }

  hasBodyMedia(op: OperationSpec, media: string): boolean {
    return this.forOperation(op).body.has(media);
  }

  body(op: OperationSpec, media: string, value: unknown, culture: Culture): FieldError[] {
    const validate = this.forOperation(op).body.get(media);
    if (!validate) return [];
    if (validate(value)) return [];
    return mapErrors(validate.errors ?? [], "/body", culture);
  }

  /** Validates a response body against the document; returns error strings (empty when it conforms). */
  response(pointer: string, value: unknown): string[] {
    let validate = this.responseCache.get(pointer);
    if (!validate) {
      validate = this.compile({ $ref: refTo(pointer) }, false, "Response validation (`validateResponses`)");
      this.responseCache.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? e.keyword}`);
  }
}

/** The entries of `values` named in `names` (those present). */
function picked(values: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const name of names) if (values[name] !== undefined) copy[name] = values[name];
  return copy;
}

/** The ajv keywords with a localized detail: the `validation.<keyword>` texts of the message files. */
const KEYWORDS = new Set([
  "required",
  "additionalProperties",
  "unevaluatedProperties",
  "type",
  "enum",
  "const",
  "format",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "minItems",
  "maxItems",
  "oneOf",
  "anyOf",
  "uniqueItems",
]);

/** The keyword's localized detail, its ajv params as placeholders (lists joined, constants as JSON). */
function keywordDetail(
  keyword: string,
  params: Record<string, unknown>,
  culture: Culture,
): string | undefined {
  if (!KEYWORDS.has(keyword)) return undefined;
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === "allowedValues" && Array.isArray(value)) values[name] = value.join(", ");
    else if (name === "allowedValue") values[name] = JSON.stringify(value);
    else values[name] = typeof value === "number" ? value : String(value);
  }
  return formatMessage(culture, `validation.${keyword}`, values);
}

function appendPointer(base: string, key: string): string {
  return `${base}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** Maps ajv errors to `{pointer, detail}` with JSON Pointers into the request and localized details. */
export function mapErrors(errors: ErrorObject[], prefix: string, culture: Culture): FieldError[] {
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    let pointer = prefix + e.instancePath;
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required") pointer = appendPointer(pointer, String(params.missingProperty));
    else if (e.keyword === "additionalProperties")
      pointer = appendPointer(pointer, String(params.additionalProperty));
    else if (e.keyword === "unevaluatedProperties")
      pointer = appendPointer(pointer, String(params.unevaluatedProperty));
    const message = keywordDetail(e.keyword, params, culture) ?? e.message ?? e.keyword;
    const key = `${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ pointer, detail: message });
    if (out.length >= 25) break;
  }
  return out;
}
