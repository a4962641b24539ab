/**
 * Compares two bundled OpenAPI 3.1 documents and classifies every change an integrator can notice as breaking,
 * non-breaking or a deprecation (VERSIONING.md, "What is breaking"). Named schemas are compared once, by name, in
 * the directions they are used in (sent by clients, read by clients, or both), so a shared schema is not
 * reported once per operation. Descriptions, summaries and examples are not changes of the contract's shape.
 */
import {
  type ChangeKind,
  Comparison,
  type ContractChange,
  type Direction,
  type Json,
  METHODS,
  resolve,
  schemaDirections,
  sunsetNote,
} from "./comparison.ts";

export type { ChangeKind, ContractChange };

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
