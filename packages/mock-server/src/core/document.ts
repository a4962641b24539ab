/**
 * Reads the OpenAPI 3.1 document into per-operation specs: route, security, parameters and the JSON
 * Pointers of every schema the validator needs. Schemas stay in the document (referenced by pointer),
 * so `$ref`s inside them resolve exactly as the document means.
 */

export type JsonObject = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  paths?: Record<string, JsonObject>;
  components?: JsonObject;
  security?: Array<Record<string, string[]>>;
  servers?: Array<{ url: string }>;
  [key: string]: unknown;
}

export type ParamLocation = "path" | "query" | "header";

export interface ParamSpec {
  name: string;
  in: ParamLocation;
  required: boolean;
  /** JSON Pointer of the parameter's schema in the document, or null when it declares none. */
  schemaPointer: string | null;
}

export interface SecuritySpec {
  /**
   * No requirement at all (or an empty alternative `{}`): anyone may call. With other alternatives besides `{}`, a
   * request that sends `Authorization` is still authenticated against them.
   */
  public: boolean;
  /** Alternatives of OAuth scopes; a token satisfies one alternative when it holds all of its scopes. */
  scopeSets: string[][];
  /** The `sessionToken` scheme is one of the alternatives. */
  session: boolean;
  /**
   * The query parameter of the `signedUrl` scheme (apiKey in query) when it is one of the alternatives: a signed,
   * expiring link authorizes the request without a bearer token (see links.ts).
   */
  signedUrl: string | null;
}

export interface OperationSpec {
  operationId: string;
  method: string;
  template: string;
  tag: string;
  write: boolean;
  security: SecuritySpec;
  params: ParamSpec[];
  /** `requestBody`: media type → schema pointer. */
  body: { required: boolean; media: Map<string, string | null> } | null;
  /** Response schemas: status (or "default", "2XX") → media type → schema pointer. */
  responses: Map<string, Map<string, string | null>>;
  /** Pointer of the operation object itself. */
  pointer: string;
  /**
   * Query parameters whose arrays come comma-separated (`style: form`, `explode: false`: `include=a,b`); the
   * query record splits them before validation and before the handler sees them.
   */
  commaQuery: readonly string[];
}

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

export function escapePointerSegment(segment: string): string {
  return segment.replace(/~/g, "~0").replace(/\//g, "~1");
}

export function pointerTo(...segments: string[]): string {
  return segments.map((s) => `/${escapePointerSegment(s)}`).join("");
}

function resolveRef(
  doc: OpenApiDocument,
  value: unknown,
  pointer: string,
): { value: JsonObject; pointer: string } {
  let current = value as JsonObject;
  let currentPointer = pointer;
  for (let guard = 0; guard < 10 && typeof current?.$ref === "string"; guard++) {
    const ref = current.$ref as string;
    if (!ref.startsWith("#/")) throw new Error(`Only local $refs are supported, got ${ref}`);
    currentPointer = ref.slice(1);
    current = getPointer(doc, currentPointer) as JsonObject;
  }
  return { value: current, pointer: currentPointer };
}

export function getPointer(doc: unknown, pointer: string): unknown {
  let node: unknown = doc;
  for (const raw of pointer.split("/").slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object") return undefined;
    node = (node as JsonObject)[key];
  }
  return node;
}

function securityOf(
  doc: OpenApiDocument,
  requirements: Array<Record<string, string[]>> | undefined,
): SecuritySpec {
  const schemes = ((doc.components?.securitySchemes ?? {}) as Record<string, JsonObject>) ?? {};
  const spec: SecuritySpec = { public: false, scopeSets: [], session: false, signedUrl: null };
  if (!requirements || requirements.length === 0) {
    spec.public = true;
    return spec;
  }
  for (const requirement of requirements) {
    const names = Object.keys(requirement);
    if (names.length === 0) {
      spec.public = true;
      continue;
    }
    const scopes: string[] = [];
    let hasOAuth = false;
    for (const name of names) {
      const scheme = schemes[name];
      if (name === "sessionToken" || (scheme?.type === "http" && /session/i.test(name))) {
        spec.session = true;
      } else if (scheme?.type === "apiKey" && scheme.in === "query" && typeof scheme.name === "string") {
        // A signed link (`signedUrl`) is its own alternative; it grants no OAuth scopes.
        spec.signedUrl = scheme.name;
      } else {
        hasOAuth = true;
        scopes.push(...(requirement[name] ?? []));
      }
    }
    if (hasOAuth) spec.scopeSets.push(scopes);
  }
  return spec;
}

export function compileOperations(doc: OpenApiDocument): OperationSpec[] {
  const operations: OperationSpec[] = [];
  for (const [template, rawItem] of Object.entries(doc.paths ?? {})) {
    const itemPointer = pointerTo("paths", template);
    const { value: item, pointer: resolvedItemPointer } = resolveRef(doc, rawItem, itemPointer);
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const op = item[method] as JsonObject | undefined;
      if (!op) continue;
      const opPointer = `${resolvedItemPointer}${pointerTo(method)}`;
      const params = new Map<string, ParamSpec>();
      const collect = (list: unknown[], basePointer: string) => {
        list.forEach((raw, i) => {
          const { value: p, pointer } = resolveRef(doc, raw, `${basePointer}/${i}`);
          const location = p.in as string;
          if (location !== "path" && location !== "query" && location !== "header") return;
          const name = location === "header" ? String(p.name).toLowerCase() : String(p.name);
          params.set(`${location}:${name}`, {
            name,
            in: location,
            required: location === "path" ? true : p.required === true,
            schemaPointer: p.schema ? `${pointer}/schema` : null,
          });
        });
      };
      const commaQuery = new Set<string>();
      const collectComma = (list: unknown[], basePointer: string) => {
        list.forEach((raw, i) => {
          const { value: p } = resolveRef(doc, raw, `${basePointer}/${i}`);
          const schema = p.schema as JsonObject | undefined;
          if (p.in !== "query" || p.explode !== false || (p.style ?? "form") !== "form") return;
          if (schema?.type === "array") commaQuery.add(String(p.name));
        });
      };
      collectComma(shared, `${resolvedItemPointer}/parameters`);
      collectComma((op.parameters as unknown[] | undefined) ?? [], `${opPointer}/parameters`);
      collect(shared, `${resolvedItemPointer}/parameters`);
      collect((op.parameters as unknown[] | undefined) ?? [], `${opPointer}/parameters`);

      let body: OperationSpec["body"] = null;
      if (op.requestBody) {
        const { value: rb, pointer } = resolveRef(doc, op.requestBody, `${opPointer}/requestBody`);
        const media = new Map<string, string | null>();
        for (const [type, content] of Object.entries((rb.content ?? {}) as Record<string, JsonObject>)) {
          media.set(
            type.toLowerCase(),
            content.schema ? `${pointer}${pointerTo("content", type, "schema")}` : null,
          );
        }
        body = { required: rb.required === true, media };
      }

      const responses = new Map<string, Map<string, string | null>>();
      for (const [status, raw] of Object.entries((op.responses ?? {}) as Record<string, unknown>)) {
        const { value: response, pointer } = resolveRef(
          doc,
          raw,
          `${opPointer}${pointerTo("responses", status)}`,
        );
        const media = new Map<string, string | null>();
        for (const [type, content] of Object.entries(
          (response.content ?? {}) as Record<string, JsonObject>,
        )) {
          media.set(
            type.toLowerCase(),
            content.schema ? `${pointer}${pointerTo("content", type, "schema")}` : null,
          );
        }
        responses.set(status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase(), media);
      }

      const upper = method.toUpperCase();
      operations.push({
        operationId: String(op.operationId ?? `${upper} ${template}`),
        method: upper,
        template,
        tag: String((op.tags as string[] | undefined)?.[0] ?? ""),
        write: upper === "POST" || upper === "PUT" || upper === "PATCH" || upper === "DELETE",
        security: securityOf(
          doc,
          (op.security as Array<Record<string, string[]>> | undefined) ?? doc.security,
        ),
        params: [...params.values()],
        body,
        responses,
        pointer: opPointer,
        commaQuery: [...commaQuery],
      });
    }
  }
  return operations;
}
