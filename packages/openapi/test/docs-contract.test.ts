// Rules for the documentation server's own document (generated/docs-openapi.json): public, read-only, and
// every example valid. The service API rules (tokens, idempotency, rate-limit headers) do not apply to it.
import { existsSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { allExamples, generatedDir, isObject, loadDocument, operationsOf, responsesOf } from "./document";

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

const sourceExists = existsSync(path.join(generatedDir, "..", "src", "docs-openapi.yaml"));

describe("documentation server document", () => {
  it("is generated whenever its source exists", () => {
    expect(existsSync(path.join(generatedDir, "docs-openapi.json"))).toBe(sourceExists);
  });

  if (!sourceExists) return;
  const document = loadDocument("docs-openapi.json");
  const operations = operationsOf(document, "paths");

  it("serves the MCP endpoint and the server card (service description 4.6)", () => {
    const routes = operations.map((op) => `${op.method.toUpperCase()} ${op.route}`);
    expect(routes).toContain("POST /api/mcp");
    expect(routes).toContain("GET /.well-known/mcp/server-card.json");
  });

  it("lives on the {docs_url} server", () => {
    const servers = Array.isArray(document.servers) ? document.servers.filter(isObject) : [];
    expect(servers.map((server) => server.url)).toContain("{docs_url}");
  });

  it("needs no authentication anywhere", () => {
    expect(document.security ?? []).toEqual([]);
    for (const op of operations) expect(op.operation.security ?? [], op.id).toEqual([]);
  });

  it("has unique operationIds and a 4xx response on every operation", () => {
    const ids = operations.map((op) => op.operation.operationId);
    expect(ids.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) {
      const statuses = [...responsesOf(document, op.operation).keys()];
      expect(
        statuses.some((status) => /^4/.test(status)),
        op.id,
      ).toBe(true);
    }
  });

  it("keeps every tool's outputSchema in the bundle, referenced from the tools/call result", () => {
    const schemas =
      isObject(document.components) && isObject(document.components.schemas)
        ? document.components.schemas
        : {};
    // Tool names come from the `*Call` schemas (`name` const); `search_docs` → `SearchDocsResult`.
    const tools = Object.entries(schemas)
      .filter(([name]) => name.endsWith("Call") && name !== "ToolsCallRequest")
      .map(([, schema]) => {
        const nameSchema =
          isObject(schema) && isObject(schema.properties) ? schema.properties.name : undefined;
        return isObject(nameSchema) && typeof nameSchema.const === "string" ? nameSchema.const : undefined;
      });
    expect(tools).toHaveLength(6);
    const results = tools.map(
      (tool) =>
        `${(tool ?? "").replace(/(^|_)([a-z])/g, (_match, _separator, letter: string) => letter.toUpperCase())}Result`,
    );
    for (const result of results) expect(schemas, result).toHaveProperty(result);
    const call = schemas.ToolsCallResponse;
    const result = isObject(call) && isObject(call.properties) ? call.properties.result : undefined;
    const structured =
      isObject(result) && isObject(result.properties) ? result.properties.structuredContent : undefined;
    const refs =
      isObject(structured) && Array.isArray(structured.anyOf)
        ? structured.anyOf.filter(isObject).map((entry) => entry.$ref)
        : [];
    expect(refs.sort()).toEqual(results.map((name) => `#/components/schemas/${name}`).sort());
  });

  it("every example validates against its schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    const id = "https://schemas.entrada.dev/docs-openapi.json";
    ajv.addSchema(document as object, id);
    const sites = allExamples(document);
    expect(sites.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const site of sites) {
      const validate = ajv.getSchema(`${id}${site.schemaPointer}`);
      if (!validate) failures.push(`${site.where}: schema not found`);
      else if (!validate(site.value)) failures.push(`${site.where}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
  });
});
