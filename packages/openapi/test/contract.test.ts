// House rules of the contract, checked on every operation of the bundled document — including sections written
// by other authors. Each rule comes from packages/openapi/DECISIONS.md and shared/design/CONVENTIONS.md.
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import {
  allExamples,
  deref,
  examplesAt,
  isObject,
  type Json,
  type JsonObject,
  loadDocument,
  type Operation,
  operationsOf,
  responsesOf,
  writeMethods,
} from "./document";

// ajv-formats is CommonJS with a default export; under ESM interop it may arrive wrapped.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

const document = loadDocument("openapi.json");
const operations = operationsOf(document, "paths");
const webhookOperations = operationsOf(document, "webhooks");

/** The scope each section requires (DECISIONS.md, "Scopes"). */
const scopeByTag: Record<string, string> = {
  shop: "Shop",
  sessions: "Shop",
  survey: "Shop",
  assets: "Shop",
  webhooks: "Shop",
  bi: "Shop",
  entrance: "TERP",
  externalEntrance: "TERP",
  connections: "TERP",
};
/** Sections whose browser-safe operations may accept a shop session token (DECISIONS.md, "Session tokens"). */
const sessionTags = new Set(["shop", "survey", "assets"]);

/** The operations whose method and path the service description itself gives (4.2–4.5). */
const describedOperations = new Set(["createToken", "listEvents", "createCart", "checkoutCart"]);

/** The asset operations that accept the signed links of `Ticket.ticketUrl` and `Order.receiptUrl`. */
const signedUrlOperations = new Set(["getTicketPdf", "getOrderReceipt"]);

/** Operations that are reached without an API token. */
const unauthenticated = new Set(["createToken"]);
/**
 * Public static content (DECISIONS.md "Assets"): image and icon downloads also accept anonymous requests (an empty
 * requirement `{}` next to the token alternatives), because an `<img src>` cannot send a bearer token. Every
 * other operation, the asset metadata, theme, ticket PDF and receipt included, stays protected.
 */
const anonymousOperations = new Set(["getImage", "getIcon"]);
/** Operations whose errors follow RFC 6749 §5.2 instead of RFC 9457. */
const oauthErrorOperations = new Set(["createToken"]);

function tagOf(op: Operation): string | undefined {
  const tags = op.operation.tags;
  return Array.isArray(tags) && typeof tags[0] === "string" ? tags[0] : undefined;
}

function headerParameter(op: Operation, name: string): JsonObject | undefined {
  return op.parameters.find(
    (p) => p.in === "header" && typeof p.name === "string" && p.name.toLowerCase() === name.toLowerCase(),
  );
}

function hasExample(holder: JsonObject | undefined): boolean {
  if (!holder || !isObject(holder.content)) return false;
  return Object.values(holder.content).some(
    (media) =>
      isObject(media) &&
      (media.example !== undefined || (isObject(media.examples) && Object.keys(media.examples).length > 0)),
  );
}

function hasBody(holder: JsonObject | undefined): boolean {
  return !!holder && isObject(holder.content) && Object.keys(holder.content).length > 0;
}

function schemaOf(media: Json | undefined): JsonObject | undefined {
  return isObject(media) ? deref(document, media.schema) : undefined;
}

/** A 4xx response body in the format the operation's section uses for errors. */
function isErrorBody(op: Operation, mediaType: string, media: Json): boolean {
  if (oauthErrorOperations.has(op.id)) {
    const schema = schemaOf(media);
    return (
      mediaType === "application/json" &&
      isObject(schema?.properties) &&
      "error" in schema.properties &&
      Array.isArray(schema.required) &&
      schema.required.includes("error")
    );
  }
  if (mediaType === "application/problem+json") return true;
  if (tagOf(op) === "bi" && mediaType.startsWith("application/json")) {
    // OData v4 JSON error: {"error": {"code", "message", ...}}.
    const schema = schemaOf(media);
    const error = isObject(schema?.properties) ? deref(document, schema.properties.error) : undefined;
    return isObject(error?.properties) && "code" in error.properties && "message" in error.properties;
  }
  return false;
}

describe("operation ids", () => {
  it("the document has operations", () => {
    expect(operations.length).toBeGreaterThan(0);
  });

  it("every operation (paths and webhooks) has a unique operationId", () => {
    const all = [...operations, ...webhookOperations];
    const missing = all.filter((op) => typeof op.operation.operationId !== "string").map((op) => op.pointer);
    expect(missing, "operations without operationId").toEqual([]);
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const op of all) {
      const previous = seen.get(op.id);
      if (previous) duplicates.push(`${op.id}: ${previous} and ${op.pointer}`);
      seen.set(op.id, op.pointer);
    }
    expect(duplicates, "duplicate operationIds").toEqual([]);
  });

  it("operationIds are camelCase verbNoun", () => {
    const bad = operations.map((op) => op.id).filter((id) => !/^[a-z]+[A-Z][A-Za-z0-9]*$/.test(id));
    expect(bad).toEqual([]);
  });

  it("every operation has exactly one tag, declared at the top level with a description", () => {
    const declared = new Map(
      (Array.isArray(document.tags) ? document.tags : [])
        .filter(isObject)
        .map((tag) => [tag.name, tag.description] as const),
    );
    const problems: string[] = [];
    for (const op of operations) {
      const tags = op.operation.tags;
      if (!Array.isArray(tags) || tags.length !== 1) problems.push(`${op.id}: tags ${JSON.stringify(tags)}`);
      const tag = tagOf(op);
      if (tag === undefined || typeof declared.get(tag) !== "string") problems.push(`${op.id}: tag ${tag}`);
    }
    expect(problems).toEqual([]);
  });
});

describe.each(operations.map((op) => [op.id, op] as const))("%s", (_id, op) => {
  const write = writeMethods.has(op.method);
  const responses = responsesOf(document, op.operation);

  it(
    describedOperations.has(op.id) ? "comes from the service description" : "is marked as our design",
    () => {
      // Everything else is ours, and a reader must be able to tell (DECISIONS.md, first paragraph).
      expect(op.operation["x-entrada-design"] === true).toBe(!describedOperations.has(op.id));
    },
  );

  it("accepts Accept-Language", () => {
    expect(headerParameter(op, "Accept-Language"), `${op.pointer} lacks Accept-Language`).toBeDefined();
  });

  it("uses the shared definitions of the cross-cutting parameters", () => {
    const raw = [
      ...(Array.isArray(op.operation.parameters) ? op.operation.parameters : []),
      ...(Array.isArray(op.item.parameters) ? op.item.parameters : []),
    ].filter(isObject);
    const shared: Record<string, string> = {
      "accept-language": "#/components/parameters/AcceptLanguage",
      "idempotency-key": "#/components/parameters/IdempotencyKey",
    };
    for (const parameter of raw) {
      const resolved = deref(document, parameter);
      const name = typeof resolved?.name === "string" ? resolved.name.toLowerCase() : "";
      const expected = shared[name];
      if (resolved?.in === "header" && expected)
        expect(parameter.$ref, `${op.pointer} ${name}`).toBe(expected);
    }
  });

  if (write) {
    it("accepts Idempotency-Key (write)", () => {
      const parameter = headerParameter(op, "Idempotency-Key");
      expect(parameter, `${op.pointer} lacks Idempotency-Key`).toBeDefined();
      expect(parameter?.required ?? false).toBe(false);
    });

    it("returns X-Log-Id and Idempotent-Replayed on every 2xx response (write)", () => {
      const successes = [...responses].filter(([status]) => /^2/.test(status));
      expect(successes.length, `${op.pointer} has no 2xx response`).toBeGreaterThan(0);
      for (const [status, response] of successes) {
        const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
        expect(headers, `${op.id} ${status} lacks X-Log-Id`).toContain("X-Log-Id");
        expect(headers, `${op.id} ${status} lacks Idempotent-Replayed`).toContain("Idempotent-Replayed");
      }
    });
  }

  it("returns X-Log-Id and the RateLimit headers on every response", () => {
    const missing: string[] = [];
    for (const [status, response] of responses) {
      const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
      for (const name of ["X-Log-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]) {
        if (!headers.includes(name)) missing.push(`${status} ${name}`);
      }
    }
    expect(missing, `${op.pointer} responses lack headers`).toEqual([]);
  });

  it("localizes every problem response (Content-Language, Vary)", () => {
    const missing: string[] = [];
    for (const [status, response] of responses) {
      if (!isObject(response.content) || !("application/problem+json" in response.content)) continue;
      const headers = isObject(response.headers) ? Object.keys(response.headers) : [];
      for (const name of ["Content-Language", "Vary"])
        if (!headers.includes(name)) missing.push(`${status} ${name}`);
    }
    expect(missing, `${op.pointer} problem responses lack headers`).toEqual([]);
  });

  it(
    unauthenticated.has(op.id)
      ? "declares that it needs no token"
      : anonymousOperations.has(op.id)
        ? "accepts a token or no credentials at all (public static content)"
        : "requires a token",
    () => {
      const security = op.operation.security ?? document.security;
      expect(Array.isArray(security), `${op.pointer} has no security`).toBe(true);
      const requirements = (security as Json[]).filter(isObject);
      if (unauthenticated.has(op.id)) {
        expect(requirements).toEqual([]);
        return;
      }
      const anonymous = requirements.filter((r) => Object.keys(r).length === 0);
      const withCredentials = requirements.filter((r) => Object.keys(r).length > 0);
      // An empty requirement makes the whole operation public: only the image and icon downloads may have one,
      // exactly once, and they still list the token alternatives (a sent token is checked, SDKs may send one).
      expect(anonymous, `${op.pointer} anonymous alternatives`).toEqual(
        anonymousOperations.has(op.id) ? [{}] : [],
      );
      expect(withCredentials.length, `${op.pointer} token alternatives`).toBeGreaterThan(0);
      if (anonymousOperations.has(op.id)) expect(op.method).toBe("get");
    },
  );

  if (!unauthenticated.has(op.id)) {
    it("requires its section's OAuth scope; session tokens only where the browser may call", () => {
      const requirements = ((op.operation.security ?? document.security ?? []) as Json[]).filter(isObject);
      const tag = tagOf(op) ?? "";
      const oauthScopes = requirements.flatMap((r) => (Array.isArray(r.oauth2) ? r.oauth2 : []));
      expect(oauthScopes, `${op.pointer} scopes`).toEqual([scopeByTag[tag]]);
      const schemes = requirements.flatMap((r) => Object.keys(r));
      for (const scheme of schemes)
        expect(["oauth2", "sessionToken", "signedUrl"], `${op.pointer} scheme`).toContain(scheme);
      if (schemes.includes("sessionToken"))
        expect(sessionTags, `${op.pointer} accepts a session token`).toContain(tag);
    });

    it(
      signedUrlOperations.has(op.id)
        ? "also accepts its own signed link (signedUrl alone, with the expires parameter)"
        : "accepts no signed link",
      () => {
        // DECISIONS.md "Signed asset links": only the ticket PDF and the receipt, the targets of the links the API
        // hands out, may be opened with `?expires=…&signature=…` instead of a bearer token.
        const requirements = ((op.operation.security ?? document.security ?? []) as Json[]).filter(isObject);
        const signed = requirements.filter((r) => "signedUrl" in r);
        if (!signedUrlOperations.has(op.id)) {
          expect(signed, `${op.pointer} accepts signedUrl`).toEqual([]);
          return;
        }
        // Its own alternative (OR), not combined with a token (AND), and no scopes.
        expect(signed).toEqual([{ signedUrl: [] }]);
        expect(op.method).toBe("get");
        const expires = op.parameters.find((p) => p.in === "query" && p.name === "expires");
        expect(expires?.required ?? false, `${op.pointer} expires parameter`).toBe(false);
        expect(isObject(expires?.schema) ? expires.schema.type : undefined).toBe("integer");
        // The scheme's key is declared as a parameter too, so request validators accept it.
        const signature = op.parameters.find((p) => p.in === "query" && p.name === "signature");
        expect(signature?.required ?? false, `${op.pointer} signature parameter`).toBe(false);
      },
    );
  }

  it("describes every problem response with the shared Problem schema", () => {
    // VoucherProblem is Problem plus the voucher `code` (allOf), like ValidationProblem adds `errors`.
    const problems = new Set([
      "#/components/schemas/Problem",
      "#/components/schemas/ValidationProblem",
      "#/components/schemas/VoucherProblem",
    ]);
    const refsIn = (schema: Json | undefined): string[] => {
      if (!isObject(schema)) return [];
      if (typeof schema.$ref === "string") return [schema.$ref];
      return ["anyOf", "oneOf", "allOf"].flatMap((k) =>
        Array.isArray(schema[k]) ? schema[k].flatMap(refsIn) : [],
      );
    };
    for (const [status, response] of responses) {
      const media = isObject(response.content) ? response.content["application/problem+json"] : undefined;
      if (!isObject(media)) continue;
      const refs = refsIn(media.schema);
      expect(refs.length, `${op.id} ${status} problem schema`).toBeGreaterThan(0);
      for (const ref of refs) expect(problems, `${op.id} ${status} problem schema`).toContain(ref);
    }
  });

  it("documents at least one 4xx error in the section's error format", () => {
    const errors = [...responses].filter(
      ([status, response]) =>
        /^4/.test(status) &&
        isObject(response.content) &&
        Object.entries(response.content).some(([mediaType, media]) => isErrorBody(op, mediaType, media)),
    );
    expect(
      errors.map(([status]) => status),
      `${op.pointer} has no 4xx error body`,
    ).not.toEqual([]);
  });

  it("shows an example of its request or success response", () => {
    const requestBody = deref(document, op.operation.requestBody);
    const successes = [...responses].filter(([status]) => /^2/.test(status)).map(([, response]) => response);
    const bodies = [requestBody, ...successes].filter(hasBody);
    if (bodies.length === 0) {
      // Nothing to exemplify but errors: then an error example must exist.
      expect([...responses.values()].some(hasExample), `${op.pointer} has no example at all`).toBe(true);
    } else {
      expect(bodies.some(hasExample), `${op.pointer}: no example on its request or 2xx body`).toBe(true);
    }
  });
});

describe("components", () => {
  it("no two sections hoist a component under the same name (the bundler would suffix one with -2)", () => {
    const suffixed: string[] = [];
    const components = isObject(document.components) ? document.components : {};
    for (const [kind, entries] of Object.entries(components)) {
      if (!isObject(entries)) continue;
      for (const name of Object.keys(entries)) {
        const base = /^(.+)-\d+$/.exec(name)?.[1];
        if (base !== undefined && base in entries)
          suffixed.push(`components/${kind}/${name} duplicates ${base}`);
      }
    }
    expect(suffixed).toEqual([]);
  });
});

describe("anonymous access", () => {
  it("is allowed on exactly the image and icon downloads", () => {
    const anonymous = operations
      .filter((op) =>
        ((op.operation.security ?? document.security ?? []) as Json[]).some(
          (r) => isObject(r) && Object.keys(r).length === 0,
        ),
      )
      .map((op) => op.id)
      .sort();
    expect(anonymous).toEqual([...anonymousOperations].sort());
  });
});

describe("signed asset links", () => {
  it("declares the signedUrl scheme: an API key in the query parameter `signature`", () => {
    const schemes =
      isObject(document.components) && isObject(document.components.securitySchemes)
        ? document.components.securitySchemes
        : {};
    expect(schemes.signedUrl).toMatchObject({ type: "apiKey", in: "query", name: "signature" });
    const description = isObject(schemes.signedUrl) ? String(schemes.signedUrl.description) : "";
    for (const word of ["HMAC-SHA256", "expires", "24 hours", "base64url"])
      expect(description).toContain(word);
  });

  it("is accepted by exactly the ticket PDF and the receipt", () => {
    const accepting = operations
      .filter((op) => ((op.operation.security ?? []) as Json[]).some((r) => isObject(r) && "signedUrl" in r))
      .map((op) => op.id)
      .sort();
    expect(accepting).toEqual([...signedUrlOperations].sort());
  });
});

describe("defaults", () => {
  // The types are generated with `defaultNonNullable: false`, so a property with a `default` is optional in the
  // types: right for request bodies (the server fills it in), wrong for data the server always sends. A response or
  // webhook payload property with a default must therefore be listed in `required`.
  it("every defaulted property reached from a response or webhook payload is required", () => {
    const visited = new Set<JsonObject>();
    const problems: string[] = [];
    const visit = (value: Json | undefined, where: string): void => {
      if (!isObject(value)) {
        if (Array.isArray(value)) for (const [i, item] of value.entries()) visit(item, `${where}/${i}`);
        return;
      }
      const schema = typeof value.$ref === "string" ? deref(document, value) : value;
      if (!schema || visited.has(schema)) return;
      visited.add(schema);
      const at = typeof value.$ref === "string" ? value.$ref : where;
      const required = Array.isArray(schema.required) ? schema.required : [];
      if (isObject(schema.properties))
        for (const [name, property] of Object.entries(schema.properties)) {
          const defaulted =
            (isObject(property) && "default" in property) || "default" in (deref(document, property) ?? {});
          if (defaulted && !required.includes(name)) problems.push(`${at}/properties/${name}`);
          visit(property, `${at}/properties/${name}`);
        }
      for (const [key, child] of Object.entries(schema)) {
        if (["properties", "examples", "example", "default", "const", "enum"].includes(key)) continue;
        visit(child, `${at}/${key}`);
      }
    };
    for (const op of [...operations, ...webhookOperations]) {
      for (const [status, response] of responsesOf(document, op.operation)) {
        if (!isObject(response.content)) continue;
        for (const [mediaType, media] of Object.entries(response.content))
          if (isObject(media)) visit(media.schema, `${op.id} ${status} ${mediaType}`);
      }
    }
    for (const op of webhookOperations) {
      const body = deref(document, op.operation.requestBody);
      if (isObject(body?.content))
        for (const [mediaType, media] of Object.entries(body.content))
          if (isObject(media)) visit(media.schema, `${op.id} payload ${mediaType}`);
    }
    expect(visited.size, "schemas walked").toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

describe("webhooks", () => {
  it("has exactly 30 event kinds", () => {
    expect(isObject(document.webhooks) ? Object.keys(document.webhooks).length : 0).toBe(30);
  });

  it("every webhook is a POST with a payload example", () => {
    const problems: string[] = [];
    for (const op of webhookOperations) {
      if (op.method !== "post") problems.push(`${op.pointer}: not POST`);
      if (!hasExample(deref(document, op.operation.requestBody)))
        problems.push(`${op.pointer}: no payload example`);
    }
    expect(problems).toEqual([]);
  });
});

describe("examples", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const documentId = "https://schemas.entrada.dev/openapi.json";
  ajv.addSchema(document as object, documentId);
  const sites = allExamples(document);

  it("the document has examples", () => {
    expect(sites.length).toBeGreaterThan(operations.length);
  });

  it("every example validates against its schema", () => {
    const failures: string[] = [];
    for (const site of sites) {
      const validate = ajv.getSchema(`${documentId}${site.schemaPointer}`);
      if (!validate) {
        failures.push(`${site.where}: schema ${site.schemaPointer} not found`);
        continue;
      }
      if (!validate(site.value)) failures.push(`${site.where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
  });

  it("an invalid value is rejected (the validator is live)", () => {
    const validate = ajv.getSchema(`${documentId}#/components/schemas/Money`);
    expect(validate?.({ amount: 4500, currency: "CHF" })).toBe(true);
    expect(validate?.({ amount: 45.5, currency: "CHF" })).toBe(false);
    expect(validate?.({ amount: 4500 })).toBe(false);
  });
});

describe("media-type examples are found where they are declared", () => {
  it("createCart's 201 example is a Cart", () => {
    const op = operations.find((o) => o.id === "createCart");
    expect(op).toBeDefined();
    const response = op && responsesOf(document, op.operation).get("201");
    const media = isObject(response?.content) ? response.content["application/json"] : undefined;
    expect(isObject(media)).toBe(true);
    const sites = examplesAt(document, media as JsonObject, `${op?.pointer}/responses/201`, "createCart 201");
    expect(sites).toHaveLength(1);
    const value = sites[0]?.value;
    expect(isObject(value) && value.status).toBe("open");
  });
});

describe("Accept-Language accepts RFC 9110 field values and rejects garbage", () => {
  const parameter = (document.components as JsonObject).parameters as JsonObject;
  const schema = (parameter.AcceptLanguage as JsonObject).schema as JsonObject;
  const validate = new Ajv2020({ strict: false }).compile(schema as object);

  it.each([
    ["*", "what Node's fetch and many HTTP clients send by default"],
    ["en-GB", "one tag"],
    ["fr", "a bare language"],
    ["en-GB, de-CH;q=0.8", "the documented example"],
    ["fr-CH;q=1.000, *;q=0.1", "q with three decimals, a weighted wildcard"],
    ["de-CH,fr-CH;q=0.9,*;q=0", "no spaces, a wildcard excluded with q=0"],
    ["it-CH ; Q=0.5", "optional whitespace around the semicolon, Q in capitals"],
    ["de-CH-1996, zh-Hant-TW;q=0.2", "longer ranges"],
    ["de-CH, , fr-CH", "empty list elements (RFC 9110 §5.6.1)"],
  ])("accepts %j (%s)", (value) => {
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each([
    ["", "empty"],
    [",", "only an empty element"],
    ["de_CH", "underscore"],
    ["en-GB;q=2", "q above 1"],
    ["en-GB;q=1.5", "q between 1 and 2"],
    ["en-GB;q=0.1234", "four decimals"],
    [";q=0.5", "a weight without a range"],
    ["en-GB q=0.5", "a weight without the semicolon"],
    ["en-GB;level=1", "another parameter"],
    ["toolonglanguage-CH", "a subtag longer than 8"],
    ["**", "two wildcards"],
    ["de-*", "a wildcard subtag (RFC 4647 extended ranges are not in Accept-Language)"],
    ["<script>", "markup"],
    ["en-GB, ".repeat(60), "longer than 255"],
  ])("rejects %j (%s)", (value) => {
    expect(validate(value)).toBe(false);
  });

  it("still says tags have the shape language-REGION", () => {
    expect(String((parameter.AcceptLanguage as JsonObject).description)).toContain("`language-REGION`");
  });
});
