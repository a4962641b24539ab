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
