// Loading and walking the bundled contract for the tests.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const generatedDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "generated");

/**
 * Reads a bundled document from generated/. `ENTRADA_CONTRACT_DOCUMENT` (an absolute path) replaces
 * `openapi.json`, to run the contract rules on a work-in-progress bundle before it is committed.
 */
export function loadDocument(file: string): JsonObject {
  const override = file === "openapi.json" ? process.env.ENTRADA_CONTRACT_DOCUMENT : undefined;
  return JSON.parse(readFileSync(override ?? path.join(generatedDir, file), "utf8")) as JsonObject;
}

export function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` chain (`#/components/...`) to the referenced object. */
export function deref(document: JsonObject, value: Json | undefined): JsonObject | undefined {
  let current = value;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${current.$ref}`);
    const ref: string = current.$ref;
    if (!ref.startsWith("#/")) throw new Error(`non-local $ref ${ref} in a bundled document`);
    current = ref
      .slice(2)
      .split("/")
      .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce<Json | undefined>((node, part) => (isObject(node) ? node[part] : undefined), document);
    if (current === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return isObject(current) ? current : undefined;
}

export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export const writeMethods = new Set(["post", "put", "patch", "delete"]);

export interface Operation {
  /** `operationId`, or `METHOD path` when it is missing. */
  id: string;
  method: (typeof httpMethods)[number];
  route: string;
  /** JSON Pointer of the operation in the document. */
  pointer: string;
  operation: JsonObject;
  /** The path item (or webhook) holding the operation. */
  item: JsonObject;
  /** Path-item and operation parameters, dereferenced. */
  parameters: JsonObject[];
}

function escapePointer(part: string): string {
  return part.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Every operation under `paths` (section `"paths"`) or `webhooks` (section `"webhooks"`). */
export function operationsOf(document: JsonObject, section: "paths" | "webhooks"): Operation[] {
  const result: Operation[] = [];
  const items = document[section];
  if (!isObject(items)) return result;
  for (const [route, rawItem] of Object.entries(items)) {
    const item = deref(document, rawItem);
    if (!item) continue;
    for (const method of httpMethods) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const raw = [
        ...(Array.isArray(item.parameters) ? item.parameters : []),
        ...(Array.isArray(operation.parameters) ? operation.parameters : []),
      ];
      result.push({
        id:
          typeof operation.operationId === "string"
            ? operation.operationId
            : `${method.toUpperCase()} ${route}`,
        method,
        route,
        pointer: `#/${section}/${escapePointer(route)}/${method}`,
        operation,
        item,
        parameters: raw.map((p) => deref(document, p)).filter((p): p is JsonObject => p !== undefined),
      });
    }
  }
  return result;
}

/** The operation's responses, dereferenced, keyed by status code. */
export function responsesOf(document: JsonObject, operation: JsonObject): Map<string, JsonObject> {
  const responses = new Map<string, JsonObject>();
  if (!isObject(operation.responses)) return responses;
  for (const [status, raw] of Object.entries(operation.responses)) {
    const response = deref(document, raw);
    if (response) responses.set(status, response);
  }
  return responses;
}

export interface ExampleSite {
  /** Human-readable location, e.g. `createCart 201 application/json example`. */
  where: string;
  /** Pointer of the schema the example must satisfy. */
  schemaPointer: string;
  value: Json;
}

/** Every example attached to a schema-bearing object (media type, parameter, header, or schema itself). */
export function examplesAt(
  document: JsonObject,
  holder: JsonObject,
  pointer: string,
  where: string,
): ExampleSite[] {
  const sites: ExampleSite[] = [];
  if (!("schema" in holder)) return sites;
  const schemaPointer = `${pointer}/schema`;
  if ("example" in holder && holder.example !== undefined) {
    sites.push({ where: `${where} example`, schemaPointer, value: holder.example });
  }
  if (isObject(holder.examples)) {
    for (const [name, raw] of Object.entries(holder.examples)) {
      const example = deref(document, raw);
      if (example && "value" in example && example.value !== undefined) {
        sites.push({ where: `${where} examples.${name}`, schemaPointer, value: example.value });
      }
    }
  }
  return sites;
}

/** Every example in the document: media types, parameters, headers and schema-level `examples`. */
export function allExamples(document: JsonObject): ExampleSite[] {
  const sites: ExampleSite[] = [];
  const walk = (node: Json, pointer: string, where: string): void => {
    if (Array.isArray(node)) {
      node.forEach((child, index) => {
        walk(child, `${pointer}/${index}`, where);
      });
      return;
    }
    if (!isObject(node)) return;
    sites.push(...examplesAt(document, node, pointer, `${where} (${pointer})`));
    for (const [key, child] of Object.entries(node)) {
      // Example values are data, not OpenAPI objects: do not look for examples inside them.
      if (key === "example" || key === "examples" || key === "schema") continue;
      walk(child, `${pointer}/${escapePointer(key)}`, where);
    }
  };
  for (const section of ["paths", "webhooks", "components"] as const) {
    const node = document[section];
    if (node !== undefined) walk(node, `#/${section}`, section);
  }
  const schemas = isObject(document.components) ? document.components.schemas : undefined;
  if (isObject(schemas)) {
    for (const [name, schema] of Object.entries(schemas)) {
      if (isObject(schema) && Array.isArray(schema.examples)) {
        schema.examples.forEach((value, index) => {
          sites.push({
            where: `schema ${name} examples[${index}]`,
            schemaPointer: `#/components/schemas/${escapePointer(name)}`,
            value,
          });
        });
      }
    }
  }
  return sites;
}
