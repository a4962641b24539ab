/**
 * The shapes of a contract change and the comparison of two schemas: what a client sends may only loosen, what
 * it reads may only grow (VERSIONING.md, "What is breaking"). `classify.ts` walks the operations with it.
 */

export type ChangeKind = "breaking" | "non-breaking" | "deprecated";
export type Direction = "request" | "response";

export interface ContractChange {
  kind: ChangeKind;
  /** What integrators look up: an operationId, a schema name, or a webhook event. */
  subject: string;
  /** Where: `POST /shop/v1/cart`, `schema Cart`, `webhook ticket.issued`. */
  location: string;
  /** JSON Pointer into the document that has it (the new one, or the old one for a removal). */
  pointer: string;
  message: string;
}

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked as plain JSON
export type Json = any;

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
export const UPPER_BOUNDS = [
  "maxLength",
  "maximum",
  "exclusiveMaximum",
  "maxItems",
  "maxProperties",
] as const;
export const LOWER_BOUNDS = [
  "minLength",
  "minimum",
  "exclusiveMinimum",
  "minItems",
  "minProperties",
] as const;

export const escapeSegment = (segment: string | number) =>
  String(segment).replaceAll("~", "~0").replaceAll("/", "~1");
export const pointerOf = (segments: (string | number)[]) => `#/${segments.map(escapeSegment).join("/")}`;
export const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

export function resolve(document: Json, value: Json): Json {
  let current = value;
  for (let hops = 0; current?.$ref && hops < 10; hops++) {
    const segments = String(current.$ref).replace(/^#\//, "").split("/");
    current = segments.reduce(
      (node: Json, segment) => node?.[segment.replaceAll("~1", "/").replaceAll("~0", "~")],
      document,
    );
  }
  return current;
}

export function typeSet(schema: Json): Set<string> {
  const types = new Set<string>(
    Array.isArray(schema?.type) ? schema.type : schema?.type !== undefined ? [schema.type] : [],
  );
  if (schema?.nullable === true) types.add("null");
  return types;
}

/** The directions each named schema is used in, following `$ref`s from operations and webhooks. */
export function schemaDirections(document: Json): Map<string, Set<Direction>> {
  const directions = new Map<string, Set<Direction>>();
  const visit = (node: Json, direction: Direction) => {
    if (node === null || typeof node !== "object") return;
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/components/schemas/")) {
      const name = refName(node.$ref);
      const seen = directions.get(name) ?? new Set<Direction>();
      if (seen.has(direction)) return;
      seen.add(direction);
      directions.set(name, seen);
      visit(document.components?.schemas?.[name], direction);
      return;
    }
    if (typeof node.$ref === "string") {
      visit(resolve(document, node), direction);
      return;
    }
    for (const value of Object.values(node)) visit(value, direction);
  };
  for (const item of Object.values<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item?.[method];
      if (!operation) continue;
      visit([...(item.parameters ?? []), ...(operation.parameters ?? [])], "request");
      visit(operation.requestBody, "request");
      visit(operation.responses, "response");
    }
  }
  // A webhook's request is what integrators receive: they read it, as they read a response.
  for (const item of Object.values<Json>(document.webhooks ?? {})) {
    for (const method of METHODS) if (item?.[method]) visit(item[method].requestBody, "response");
  }
  return directions;
}

export class Comparison {
  readonly changes: ContractChange[] = [];
  constructor(
    readonly before: Json,
    readonly after: Json,
  ) {}

  add(kind: ChangeKind, subject: string, location: string, segments: (string | number)[], message: string) {
    this.changes.push({ kind, subject, location, pointer: pointerOf(segments), message });
  }

  /** Breaking when it breaks any direction the schema is used in. */
  either(directions: Set<Direction>, request: boolean, response: boolean): ChangeKind {
    return (directions.has("request") && request) || (directions.has("response") && response)
      ? "breaking"
      : "non-breaking";
  }

  schema(
    a: Json,
    b: Json,
    directions: Set<Direction>,
    subject: string,
    location: string,
    at: (string | number)[],
    label: string,
  ) {
    if (a === undefined || b === undefined || a === null || b === null) return;
    const note = (kind: ChangeKind, where: (string | number)[], message: string) =>
      this.add(kind, subject, location, [...at, ...where], `${label}${message}`);
    /** Breaking when it breaks a client that sends it (`request`) or one that reads it (`response`). */
    const breaks = (request: boolean, response: boolean) => this.either(directions, request, response);
    if (a.$ref || b.$ref) {
      const name = (s: Json) => (s.$ref ? `\`${refName(s.$ref)}\`` : "an inline schema");
      if (a.$ref !== b.$ref) note("breaking", [], `: ${name(a)} became ${name(b)}`);
      return;
    }
    if (b.deprecated === true && a.deprecated !== true) note("deprecated", [], ` deprecated${sunsetNote(b)}`);
    const typesA = typeSet(a);
    const typesB = typeSet(b);
    // A new type may reach readers; a type no longer accepted fails senders.
    for (const type of typesB) {
      if (typesA.size === 0 || typesA.has(type)) continue;
      note(
        breaks(false, true),
        ["type"],
        type === "null" ? " may now be null" : ` may now be of type ${type}`,
      );
    }
    for (const type of typesA) {
      if (typesB.size === 0 || typesB.has(type)) continue;
      note(
        breaks(true, false),
        ["type"],
        type === "null" ? " may no longer be null" : ` is no longer of type ${type}`,
      );
    }
    if (a.format !== b.format && (a.format !== undefined || b.format !== undefined)) {
      note("breaking", ["format"], `: format ${a.format ?? "(none)"} became ${b.format ?? "(none)"}`);
    }
    if (JSON.stringify(a.const) !== JSON.stringify(b.const))
      note("breaking", ["const"], ": constant value changed");
    if (Array.isArray(a.enum) || Array.isArray(b.enum)) {
      const valuesA: unknown[] = a.enum ?? [];
      const valuesB: unknown[] = b.enum ?? [];
      for (const value of valuesB.filter((v) => !valuesA.includes(v))) {
        note("non-breaking", ["enum"], `: value ${JSON.stringify(value)} added`);
      }
      for (const value of valuesA.filter((v) => !valuesB.includes(v))) {
        note(breaks(true, false), ["enum"], `: value ${JSON.stringify(value)} removed`);
      }
    }
    // A tighter bound on what clients send breaks them; readers are not promised bounds.
    for (const [keys, tighter] of [
      [UPPER_BOUNDS, (x: number, y: number) => y < x],
      [LOWER_BOUNDS, (x: number, y: number) => y > x],
    ] as const) {
      for (const key of keys) {
        if (a[key] === b[key]) continue;
        const tightened = b[key] !== undefined && (a[key] === undefined || tighter(a[key], b[key]));
        note(breaks(tightened, false), [key], `: ${key} ${a[key] ?? "(none)"} → ${b[key] ?? "(none)"}`);
      }
    }
    if (a.pattern !== b.pattern) {
      note(
        breaks(b.pattern !== undefined, false),
        ["pattern"],
        `: pattern ${a.pattern ?? "(none)"} → ${b.pattern ?? "(none)"}`,
      );
    }
    const requiredA = new Set<string>(a.required ?? []);
    const requiredB = new Set<string>(b.required ?? []);
    const propsA = a.properties ?? {};
    const propsB = b.properties ?? {};
    for (const name of Object.keys(propsA)) {
      if (!(name in propsB)) note("breaking", ["properties", name], `: property \`${name}\` removed`);
    }
    for (const name of Object.keys(propsB)) {
      if (!(name in propsA)) {
        const required = requiredB.has(name);
        note(
          breaks(required, false),
          ["properties", name],
          `: ${required ? "required " : ""}property \`${name}\` added`,
        );
        continue;
      }
      if (requiredB.has(name) && !requiredA.has(name)) {
        note(breaks(true, false), ["required"], `: property \`${name}\` is now required`);
      }
      if (requiredA.has(name) && !requiredB.has(name)) {
        note(breaks(false, true), ["required"], `: property \`${name}\` is no longer required`);
      }
      this.schema(
        propsA[name],
        propsB[name],
        directions,
        subject,
        location,
        [...at, "properties", name],
        `${label}.${name}`,
      );
    }
    if (a.additionalProperties !== undefined || b.additionalProperties !== undefined) {
      const openA = a.additionalProperties !== false;
      const openB = b.additionalProperties !== false;
      if (openA && !openB)
        note(breaks(true, false), ["additionalProperties"], ": other properties are no longer accepted");
      else if (!openA && openB)
        note(breaks(false, true), ["additionalProperties"], ": other properties may now appear");
      else if (typeof a.additionalProperties === "object" && typeof b.additionalProperties === "object") {
        this.schema(
          a.additionalProperties,
          b.additionalProperties,
          directions,
          subject,
          location,
          [...at, "additionalProperties"],
          `${label}[*]`,
        );
      }
    }
    this.schema(a.items, b.items, directions, subject, location, [...at, "items"], `${label}[]`);
    for (const key of ["oneOf", "anyOf", "allOf"] as const) {
      const listA: Json[] = a[key] ?? [];
      const listB: Json[] = b[key] ?? [];
      // A new variant may reach readers; a lost one fails senders; allOf's parts are the shape itself.
      if (listB.length > listA.length) {
        note(key === "allOf" ? "breaking" : breaks(false, true), [key], `: ${key} gained a variant`);
      } else if (listB.length < listA.length) {
        note(key === "allOf" ? "breaking" : breaks(true, false), [key], `: ${key} lost a variant`);
      }
      for (let i = 0; i < Math.min(listA.length, listB.length); i++) {
        this.schema(
          listA[i],
          listB[i],
          directions,
          subject,
          location,
          [...at, key, i],
          `${label} (${key}[${i}])`,
        );
      }
    }
  }
}

export function sunsetNote(node: Json): string {
  return typeof node?.["x-sunset"] === "string" ? ` (sunset ${node["x-sunset"]})` : "";
}
