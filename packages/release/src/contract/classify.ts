/**
 * Compares two bundled OpenAPI 3.1 documents and classifies every change an integrator can notice as breaking,
 * non-breaking or a deprecation (VERSIONING.md, "What is breaking"). Named schemas are compared once, by name, in
 * the directions they are used in (sent by clients, read by clients, or both), so a shared schema is not
 * reported once per operation. Descriptions, summaries and examples are not changes of the contract's shape.
 */

export type ChangeKind = "breaking" | "non-breaking" | "deprecated";
type Direction = "request" | "response";

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
type Json = any;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;
const UPPER_BOUNDS = ["maxLength", "maximum", "exclusiveMaximum", "maxItems", "maxProperties"] as const;
const LOWER_BOUNDS = ["minLength", "minimum", "exclusiveMinimum", "minItems", "minProperties"] as const;

const escapeSegment = (segment: string | number) =>
  String(segment).replaceAll("~", "~0").replaceAll("/", "~1");
const pointerOf = (segments: (string | number)[]) => `#/${segments.map(escapeSegment).join("/")}`;
const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

function resolve(document: Json, value: Json): Json {
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

function typeSet(schema: Json): Set<string> {
  const types = new Set<string>(
    Array.isArray(schema?.type) ? schema.type : schema?.type !== undefined ? [schema.type] : [],
  );
  if (schema?.nullable === true) types.add("null");
  return types;
}

/** The directions each named schema is used in, following `$ref`s from operations and webhooks. */
function schemaDirections(document: Json): Map<string, Set<Direction>> {
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

class Comparison {
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

function sunsetNote(node: Json): string {
  return typeof node?.["x-sunset"] === "string" ? ` (sunset ${node["x-sunset"]})` : "";
}

function operations(
  document: Json,
): Map<string, { route: string; method: string; item: Json; operation: Json }> {
  const table = new Map();
  for (const [route, item] of Object.entries<Json>(document.paths ?? {})) {
    for (const method of METHODS) {
      if (item?.[method])
        table.set(`${method.toUpperCase()} ${route}`, { route, method, item, operation: item[method] });
    }
  }
  return table;
}

function parameters(document: Json, item: Json, operation: Json): Map<string, Json> {
  const byKey = new Map<string, Json>();
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = resolve(document, raw);
    if (parameter?.name) byKey.set(`${parameter.in}:${String(parameter.name).toLowerCase()}`, parameter);
  }
  return byKey;
}

const alternatives = (document: Json, operation: Json) =>
  new Set<string>(
    (operation.security ?? document.security ?? []).map((requirement: Json) =>
      Object.entries<string[]>(requirement)
        .map(([scheme, scopes]) => `${scheme}${scopes.length ? `(${[...scopes].sort().join(" ")})` : ""}`)
        .sort()
        .join(" + "),
    ),
  );

function compareContent(
  c: Comparison,
  a: Json,
  b: Json,
  direction: Direction,
  subject: string,
  location: string,
  at: (string | number)[],
  label: string,
) {
  const contentA = a?.content ?? {};
  const contentB = b?.content ?? {};
  const directions = new Set<Direction>([direction]);
  for (const media of Object.keys(contentA)) {
    if (!(media in contentB)) {
      c.add(
        "breaking",
        subject,
        location,
        [...at, "content", media],
        `${label}: media type ${media} removed`,
      );
    } else {
      c.schema(
        contentA[media].schema,
        contentB[media].schema,
        directions,
        subject,
        location,
        [...at, "content", media, "schema"],
        label,
      );
    }
  }
  for (const media of Object.keys(contentB)) {
    if (!(media in contentA)) {
      c.add(
        "non-breaking",
        subject,
        location,
        [...at, "content", media],
        `${label}: media type ${media} added`,
      );
    }
  }
}

function compareOperation(
  c: Comparison,
  key: string,
  a: { item: Json; operation: Json },
  b: typeof a,
  at: string[],
) {
  const before = c.before;
  const after = c.after;
  const subject: string = b.operation.operationId ?? key;
  const opA = a.operation;
  const opB = b.operation;
  if (opA.operationId !== opB.operationId) {
    c.add(
      "breaking",
      subject,
      key,
      [...at, "operationId"],
      `operationId \`${opA.operationId}\` renamed to \`${opB.operationId}\` (the SDK's method name)`,
    );
  }
  if (opB.deprecated === true && opA.deprecated !== true) {
    c.add("deprecated", subject, key, [...at, "deprecated"], `operation deprecated${sunsetNote(opB)}`);
  }
  const securityA = alternatives(before, opA);
  const securityB = alternatives(after, opB);
  for (const alternative of securityA) {
    if (!securityB.has(alternative)) {
      c.add(
        "breaking",
        subject,
        key,
        [...at, "security"],
        `no longer accepts ${alternative || "no credentials"}`,
      );
    }
  }
  for (const alternative of securityB) {
    if (!securityA.has(alternative)) {
      c.add(
        "non-breaking",
        subject,
        key,
        [...at, "security"],
        `now accepts ${alternative || "no credentials"}`,
      );
    }
  }
  const paramsA = parameters(before, a.item, opA);
  const paramsB = parameters(after, b.item, opB);
  const request = new Set<Direction>(["request"]);
  for (const [name, parameter] of paramsA) {
    if (!paramsB.has(name)) {
      c.add(
        "breaking",
        subject,
        key,
        [...at, "parameters"],
        `${parameter.in} parameter \`${parameter.name}\` removed`,
      );
    }
  }
  for (const [name, parameter] of paramsB) {
    const old = paramsA.get(name);
    const label = `${parameter.in} parameter \`${parameter.name}\``;
    if (!old) {
      c.add(
        parameter.required ? "breaking" : "non-breaking",
        subject,
        key,
        [...at, "parameters"],
        `${parameter.required ? "required " : ""}${label} added`,
      );
      continue;
    }
    if (parameter.required && !old.required)
      c.add("breaking", subject, key, [...at, "parameters"], `${label} is now required`);
    if (!parameter.required && old.required) {
      c.add("non-breaking", subject, key, [...at, "parameters"], `${label} is no longer required`);
    }
    if (parameter.deprecated === true && old.deprecated !== true) {
      c.add("deprecated", subject, key, [...at, "parameters"], `${label} deprecated${sunsetNote(parameter)}`);
    }
    c.schema(old.schema, parameter.schema, request, subject, key, [...at, "parameters"], label);
  }
  const bodyA = resolve(before, opA.requestBody);
  const bodyB = resolve(after, opB.requestBody);
  if (bodyA && !bodyB) c.add("breaking", subject, key, [...at, "requestBody"], "request body removed");
  else if (!bodyA && bodyB) {
    c.add(
      bodyB.required ? "breaking" : "non-breaking",
      subject,
      key,
      [...at, "requestBody"],
      `${bodyB.required ? "required " : ""}request body added`,
    );
  } else if (bodyA && bodyB) {
    if (bodyB.required && !bodyA.required)
      c.add("breaking", subject, key, [...at, "requestBody"], "request body is now required");
    compareContent(c, bodyA, bodyB, "request", subject, key, [...at, "requestBody"], "request body");
  }
  const responsesA = opA.responses ?? {};
  const responsesB = opB.responses ?? {};
  for (const status of Object.keys(responsesA)) {
    if (!(status in responsesB)) {
      c.add(
        status.startsWith("2") ? "breaking" : "non-breaking",
        subject,
        key,
        [...at, "responses", status],
        `response ${status} removed`,
      );
    }
  }
  for (const status of Object.keys(responsesB)) {
    const where = [...at, "responses", status];
    if (!(status in responsesA)) {
      c.add(
        status.startsWith("2") ? "breaking" : "non-breaking",
        subject,
        key,
        where,
        `response ${status} added`,
      );
      continue;
    }
    const responseA = resolve(before, responsesA[status]);
    const responseB = resolve(after, responsesB[status]);
    compareContent(c, responseA, responseB, "response", subject, key, where, `response ${status}`);
    for (const header of Object.keys(responseA?.headers ?? {})) {
      if (!(header in (responseB?.headers ?? {}))) {
        c.add(
          "breaking",
          subject,
          key,
          [...where, "headers", header],
          `response ${status}: header ${header} removed`,
        );
      }
    }
  }
}

/** Every change from `before` to `after` that integrators can notice, in document order. */
export function classifyContractChanges(before: Json, after: Json): ContractChange[] {
  const c = new Comparison(before, after);
  const opsA = operations(before);
  const opsB = operations(after);
  for (const [key, a] of opsA) {
    const b = opsB.get(key);
    if (!b) {
      c.add(
        "breaking",
        a.operation.operationId ?? key,
        key,
        ["paths", a.route, a.method],
        "operation removed",
      );
    } else compareOperation(c, key, a, b, ["paths", b.route, b.method]);
  }
  for (const [key, b] of opsB) {
    if (!opsA.has(key))
      c.add(
        "non-breaking",
        b.operation.operationId ?? key,
        key,
        ["paths", b.route, b.method],
        "operation added",
      );
  }
  const hooksA = before.webhooks ?? {};
  const hooksB = after.webhooks ?? {};
  for (const name of Object.keys(hooksA)) {
    if (!(name in hooksB))
      c.add("breaking", name, `webhook ${name}`, ["webhooks", name], "webhook event removed");
  }
  for (const name of Object.keys(hooksB)) {
    if (!(name in hooksA)) {
      c.add("non-breaking", name, `webhook ${name}`, ["webhooks", name], "webhook event added");
      continue;
    }
    for (const method of METHODS) {
      const opA = hooksA[name]?.[method];
      const opB = hooksB[name]?.[method];
      if (!opA || !opB) continue;
      compareContent(
        c,
        resolve(before, opA.requestBody),
        resolve(after, opB.requestBody),
        "response",
        name,
        `webhook ${name}`,
        ["webhooks", name, method, "requestBody"],
        "payload",
      );
    }
  }
  const schemasA = before.components?.schemas ?? {};
  const schemasB = after.components?.schemas ?? {};
  const directionsA = schemaDirections(before);
  const directionsB = schemaDirections(after);
  const both = new Set<Direction>(["request", "response"]);
  for (const name of Object.keys(schemasA)) {
    const at = ["components", "schemas", name];
    if (!(name in schemasB)) {
      c.add(
        "breaking",
        name,
        `schema ${name}`,
        at,
        `schema \`${name}\` removed (the SDK exports it as a type)`,
      );
      continue;
    }
    const used = new Set<Direction>([...(directionsA.get(name) ?? []), ...(directionsB.get(name) ?? [])]);
    c.schema(
      schemasA[name],
      schemasB[name],
      used.size > 0 ? used : both,
      name,
      `schema ${name}`,
      at,
      `\`${name}\``,
    );
  }
  for (const name of Object.keys(schemasB)) {
    if (!(name in schemasA)) {
      c.add(
        "non-breaking",
        name,
        `schema ${name}`,
        ["components", "schemas", name],
        `schema \`${name}\` added`,
      );
    }
  }
  return c.changes;
}
