// The `@entrada/sdk` sample of every operation, generated from the operation table (the section and method each
// operation has on the client) and the contract's examples: shown first in the HTML reference and in the docs
// server's `get_endpoint`, and type-checked with the SDK's tests (`test/samples/samples.gen.ts`) so a
// sample that stops compiling fails `pnpm typecheck`.

const BASE_URL = "https://api.entrada.dev";

/** Follows a local `$ref` chain of the contract to the object it names. */
export function deref(openapi, node) {
  let n = node;
  for (let i = 0; n?.$ref && i < 10; i++) {
    n = n.$ref
      .split("/")
      .slice(1)
      .map((k) => k.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce((o, k) => o?.[k], openapi);
  }
  return n;
}

/** A JavaScript literal for a JSON value, indented to sit at `indent` spaces; keys unquoted where they can be. */
export function literal(value, indent = 0) {
  const pad = " ".repeat(indent + 2);
  const end = " ".repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    const inline = `[${value.map((v) => literal(v, indent)).join(", ")}]`;
    if (inline.length <= 60 && !inline.includes("\n")) return inline;
    return `[\n${value.map((v) => `${pad}${literal(v, indent + 2)},`).join("\n")}\n${end}]`;
  }
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    const key = (k) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : JSON.stringify(k));
    const inline = `{ ${entries.map(([k, v]) => `${key(k)}: ${literal(v, indent)}`).join(", ")} }`;
    if (inline.length <= 60 && !inline.includes("\n")) return inline;
    return `{\n${entries.map(([k, v]) => `${pad}${key(k)}: ${literal(v, indent + 2)},`).join("\n")}\n${end}}`;
  }
  return JSON.stringify(value);
}

/** The example of a parameter (its own, its schema's, or the first of its schema's enum). */
function parameterExample(openapi, parameter) {
  const schema = deref(openapi, parameter.schema);
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return deref(openapi, named).value;
  return schema?.example ?? schema?.examples?.[0] ?? schema?.enum?.[0] ?? schema?.default;
}

/** The example request body: the first named example, else the media type's `example`. */
function bodyExample(openapi, requestBody) {
  const body = deref(openapi, requestBody);
  const [, media] = Object.entries(body?.content ?? {})[0] ?? [];
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {})[0];
  if (named) return deref(openapi, named).value;
  return media.example ?? deref(openapi, media.schema)?.example;
}

/** The call's init argument: required parameters (the SDK sets `Accept-Language` and `Idempotency-Key`) and the body. */
function initOf(openapi, route, method) {
  const item = openapi.paths[route];
  const operation = item[method];
  const params = {};
  for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
    const parameter = deref(openapi, raw);
    if (!parameter?.required || parameter.in === "header") continue;
    const value = parameterExample(openapi, parameter);
    if (value === undefined) {
      throw new Error(
        `${operation.operationId}: required ${parameter.in} parameter ${parameter.name} has no example`,
      );
    }
    params[parameter.in] ??= {};
    params[parameter.in][parameter.name] = value;
  }
  const init = {};
  if (Object.keys(params).length > 0) init.params = params;
  const body = operation.requestBody ? bodyExample(openapi, operation.requestBody) : undefined;
  if (operation.requestBody && body === undefined && deref(openapi, operation.requestBody)?.required) {
    throw new Error(`${operation.operationId}: its required request body has no example`);
  }
  if (body !== undefined) init.body = body;
  return init;
}

/**
 * `{operationId: {section, code}}`: the sample's full text (import, client, call, result) and the code after the
 * import, which the type-checked module wraps in a function.
 */
export function renderSamples(operationsJson, openapiJson) {
  const samples = {};
  for (const [operationId, op] of Object.entries(operationsJson)) {
    const method = String(op.method).toLowerCase();
    const init = initOf(openapiJson, op.path, method);
    const scope = op.scopes[0];
    const call = `client.${op.tag}.${operationId}(${Object.keys(init).length > 0 ? literal(init) : ""})`;
    const body = [
      "const client = createClient({",
      `  baseUrl: ${JSON.stringify(BASE_URL)},`,
      "  clientId: process.env.ENTRADA_CLIENT_ID,",
      "  clientSecret: process.env.ENTRADA_CLIENT_SECRET,",
      ...(scope ? [`  scope: ${JSON.stringify(scope)},`] : []),
      "});",
      "",
      `const { data, error } = await ${call};`,
      "if (error) throw error; // typed: error.kind, and error.problem for API problems",
      "console.log(data);",
    ].join("\n");
    samples[operationId] = {
      method: op.method.toUpperCase(),
      path: op.path,
      label: "@entrada/sdk",
      lang: "typescript",
      source: `import { createClient } from "@entrada/sdk";\n\n${body}\n`,
      body,
    };
  }
  return samples;
}

/** `samples.json` as shipped: `{operationId: {method, path, label, lang, source}}`. */
export function renderSamplesJson(samples) {
  const out = {};
  for (const [id, { body: _code, ...shown }] of Object.entries(samples)) out[id] = shown;
  return `${JSON.stringify(out, null, 2)}\n`;
}

/** The type-checked module: each sample's code, as shown, in a function of its own. */
export function renderSamplesModule(samples) {
  const lines = [
    "// GENERATED by packages/sdk/scripts/generate-operations.mjs (scripts/samples.mjs): every operation's sample",
    "// as the reference shows it, type-checked by `pnpm typecheck`. Do not edit: run `pnpm --filter @entrada/sdk generate`.",
    "",
    'import { createClient } from "@entrada/sdk";',
    "",
  ];
  for (const [id, { body }] of Object.entries(samples)) {
    lines.push(`export async function ${id}Sample() {`);
    for (const line of body.split("\n")) lines.push(line ? `  ${line}` : "");
    lines.push("}", "");
  }
  return lines.join("\n");
}
