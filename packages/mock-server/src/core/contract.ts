/**
 * The response-contract checker: what makes one HTTP answer differ from the OpenAPI document, each difference a
 * `Violation` with the rule it breaks and a JSON Pointer into the response (`/body/name`, `/header/x-log-id`,
 * `/status`). Used by the mock's own response check (`pipeline/check-response.ts`), the contract proxy (every
 * upstream answer) and `entrada-mock verify` (every probe). Platform-free: the schema compiler is injected (the
 * engine's `Validator`, or `ajvSchemaCompiler` in Node).
 *
 * Rules, in the order they are checked:
 *   request     (the proxy) the request breaks the contract: parameters, body, media type (pointer into the request)
 *   route       the request matches no operation of the document
 *   status      the status is not declared for the operation (nor its `4XX`-style range or `default`)
 *   media-type  the Content-Type is not one the document declares for that status, or a declared body is missing
 *   json        the body is not JSON although the declared media type is
 *   schema      the JSON body breaks the status's schema (one violation per failing pointer)
 *   header      a documented header is missing (when required) or its value breaks its schema
 *   problem     a problem+json body whose `status` member is not the HTTP status
 *   replay      a replayed write without `Idempotent-Replayed: true` or with another `X-Log-Id` (see replay.ts)
 */
import type { ValidateFunction } from "ajv";
import {
  compileOperations,
  getPointer,
  type JsonObject,
  type OpenApiDocument,
  type OperationSpec,
  pointerTo,
} from "./document.ts";
import { contentTypeOf } from "./media-type.ts";
import { Router } from "./router.ts";
import { refTo, type SchemaCompiler } from "./validation.ts";

export type Rule =
  | "request"
  | "route"
  | "status"
  | "media-type"
  | "json"
  | "schema"
  | "header"
  | "problem"
  | "replay";

export interface Violation {
  rule: Rule;
  /** JSON Pointer into the response (`/status`, `/header/<name>`, `/body…`); into the request for `request`. */
  pointer: string;
  /** What is wrong, in English (shown in the drift report, the verifier's output and `X-Entrada-Contract`). */
  message: string;
}

/** One answer as the checker sees it. Header names lower-case. */
export interface Exchange {
  method: string;
  /** The request path below the API's base path, without the query. */
  path: string;
  status: number;
  headers: Record<string, string>;
  /** The body as received (possibly only its first bytes, see `truncated`); null when there was none. */
  body: Uint8Array | string | null;
  /** The body was longer than what was kept: the schema is not checked. */
  truncated?: boolean;
}

export interface CheckResult {
  operation: OperationSpec | null;
  violations: Violation[];
}

interface HeaderSpec {
  name: string;
  required: boolean;
  pointer: string | null;
}

const decoder = new TextDecoder();

/**
 * Checks answers against one document; validators are compiled per schema on first use (at most one per response
 * schema and documented header of the document).
 */
export class ContractChecker {
  readonly operations: OperationSpec[];
  private readonly router = new Router<OperationSpec>();
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly headerSpecs = new Map<string, HeaderSpec[]>();

  constructor(
    private readonly document: OpenApiDocument,
    private readonly compiler: SchemaCompiler,
    operations: OperationSpec[] = compileOperations(document),
  ) {
    this.operations = operations;
    for (const op of this.operations) this.router.add(op.method, op.template, op);
  }

  /** The operation a request targets, or null. */
  operationFor(method: string, path: string): OperationSpec | null {
    const match = this.router.match(method, path);
    return match.kind === "found" ? match.route : null;
  }

  check(exchange: Exchange): CheckResult {
    const op = this.operationFor(exchange.method, exchange.path);
    if (!op) {
      return {
        operation: null,
        violations: [
          {
            rule: "route",
            pointer: "/path",
            message: `${exchange.method} ${exchange.path} matches no operation of the document.`,
          },
        ],
      };
    }
    return { operation: op, violations: this.checkOperation(op, exchange) };
  }

  /** The violations of one answer to `op` (empty when it conforms). */
  checkOperation(op: OperationSpec, exchange: Exchange): Violation[] {
    const status = String(exchange.status);
    const key = op.responses.has(status)
      ? status
      : op.responses.has(`${status[0]}XX`)
        ? `${status[0]}XX`
        : op.responses.has("default")
          ? "default"
          : null;
    if (key === null) {
      return [
        {
          rule: "status",
          pointer: "/status",
          message: `Status ${status} is not declared for ${op.operationId} (declared: ${[...op.responses.keys()].join(", ")}).`,
        },
      ];
    }
    const violations: Violation[] = [];
    const media = op.responses.get(key) ?? new Map<string, string | null>();
    const type = contentTypeOf(exchange.headers["content-type"]).media;
    const body = exchange.body === null ? "" : exchange.body;
    const empty = typeof body === "string" ? body.length === 0 : body.byteLength === 0;
    const noBodyExpected = exchange.method === "HEAD" || status === "204" || status === "304";
    let json: unknown;
    let parsed = false;
    if (media.size > 0 && !empty) {
      if (!media.has(type)) {
        violations.push({
          rule: "media-type",
          pointer: "/header/content-type",
          message: `Content-Type ${type || "(none)"} is not declared for ${op.operationId} ${status} (declared: ${[...media.keys()].join(", ")}).`,
        });
      } else if (isJson(type) && !exchange.truncated) {
        try {
          json = JSON.parse(typeof body === "string" ? body : decoder.decode(body));
          parsed = true;
        } catch {
          violations.push({
            rule: "json",
            pointer: "/body",
            message: `The body is not JSON although ${op.operationId} ${status} declares ${type}.`,
          });
        }
        const schema = media.get(type);
        if (parsed && schema) violations.push(...this.schemaViolations(schema, json));
      }
    } else if (media.size > 0 && empty && !noBodyExpected && !exchange.truncated) {
      violations.push({
        rule: "media-type",
        pointer: "/body",
        message: `${op.operationId} ${status} has no body but the document declares one (${[...media.keys()].join(", ")}).`,
      });
    }
    violations.push(...this.headerViolations(op, key, exchange.headers));
    if (parsed && type === "application/problem+json") {
      const member = (json as { status?: unknown } | null)?.status;
      if (member !== undefined && member !== exchange.status)
        violations.push({
          rule: "problem",
          pointer: "/body/status",
          message: `The problem's status member is ${JSON.stringify(member)}, the HTTP status ${status}.`,
        });
    }
    return violations;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.compiler.compile({ $ref: refTo(pointer) }, { coerce: false });
      this.validators.set(pointer, validate);
    }
    return validate;
  }

  private schemaViolations(pointer: string, value: unknown): Violation[] {
    const validate = this.validator(pointer);
    if (validate(value)) return [];
    const out: Violation[] = [];
    const seen = new Set<string>();
    for (const error of validate.errors ?? []) {
      const params = error.params as Record<string, unknown>;
      let at = `/body${error.instancePath}`;
      let message = error.message ?? error.keyword;
      if (error.keyword === "required") {
        at += pointerTo(String(params.missingProperty));
        message = "Required member is missing.";
      } else if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
        at += pointerTo(String(params.additionalProperty ?? params.unevaluatedProperty));
        message = "Member is not in the schema.";
      } else if (error.keyword === "oneOf" || error.keyword === "anyOf" || error.keyword === "if") continue;
      const key = `${at}\u0000${message}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ rule: "schema", pointer: at, message });
      if (out.length >= 20) break;
    }
    return out;
  }

  /** The headers the document declares for `op`'s `status` (names lower-case). */
  private documentedHeaders(op: OperationSpec, status: string): HeaderSpec[] {
    const cacheKey = `${op.operationId} ${status}`;
    const cached = this.headerSpecs.get(cacheKey);
    if (cached) return cached;
    const rawStatus = Object.keys(
      (getPointer(this.document, `${op.pointer}/responses`) ?? {}) as JsonObject,
    ).find((s) => s.toUpperCase() === status.toUpperCase());
    const specs: HeaderSpec[] = [];
    if (rawStatus !== undefined) {
      const response = this.resolve(`${op.pointer}${pointerTo("responses", rawStatus)}`);
      for (const name of Object.keys((response.value.headers ?? {}) as JsonObject)) {
        const header = this.resolve(`${response.pointer}${pointerTo("headers", name)}`);
        specs.push({
          name: name.toLowerCase(),
          required: header.value.required === true,
          pointer: header.value.schema ? `${header.pointer}/schema` : null,
        });
      }
    }
    this.headerSpecs.set(cacheKey, specs);
    return specs;
  }

  private resolve(pointer: string): { value: JsonObject; pointer: string } {
    let current = pointer;
    let value = getPointer(this.document, current) as JsonObject;
    for (let guard = 0; guard < 10 && typeof value?.$ref === "string"; guard++) {
      current = (value.$ref as string).slice(1);
      value = getPointer(this.document, current) as JsonObject;
    }
    return { value: value ?? {}, pointer: current };
  }

  private headerViolations(op: OperationSpec, status: string, headers: Record<string, string>): Violation[] {
    const out: Violation[] = [];
    for (const spec of this.documentedHeaders(op, status)) {
      const value = headers[spec.name];
      if (value === undefined) {
        if (spec.required)
          out.push({
            rule: "header",
            pointer: `/header/${spec.name}`,
            message: `The documented header ${spec.name} is missing.`,
          });
        continue;
      }
      if (!spec.pointer) continue;
      // Header values are strings on the wire: validated with coercion, wrapped so the root can be coerced.
      const key = `header ${spec.pointer}`;
      let validate = this.validators.get(key);
      if (!validate) {
        validate = this.compiler.compile(
          { type: "object", properties: { v: { $ref: refTo(spec.pointer) } } },
          { coerce: true },
        );
        this.validators.set(key, validate);
      }
      if (!validate({ v: value }))
        out.push({
          rule: "header",
          pointer: `/header/${spec.name}`,
          message: `${spec.name}: ${validate.errors?.[0]?.message ?? "does not match its schema"}.`,
        });
    }
    return out;
  }
}

export function isJson(type: string): boolean {
  return type === "application/json" || type.endsWith("+json");
}

/** One line for `X-Entrada-Contract`: `ok`, or the violations as `rule pointer` joined by `, ` (at most 8). */
export function contractHeader(violations: readonly Violation[]): string {
  if (violations.length === 0) return "ok";
  const shown = violations.slice(0, 8).map((v) => `${v.rule} ${v.pointer}`);
  if (violations.length > 8) shown.push(`+${violations.length - 8} more`);
  // A header value is ASCII: other characters of a pointer are percent-encoded.
  return shown.join(", ").replace(/[^\x20-\x7e]/g, (c) => encodeURIComponent(c));
}
