// Deprecation (DECISIONS.md "Versions and deprecations"): whatever is deprecated carries both dates. Redocly's
// rules in redocly.yaml cover operations and parameters; fields are walked here.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { lintFile } from "../scripts/generate.mjs";
import { isObject, type Json, type JsonObject, loadDocument } from "./document";

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Pointers of every object with `deprecated: true` that lacks a well-formed `x-deprecated-at` or `x-sunset`. */
function undatedDeprecations(node: Json, pointer = "#"): string[] {
  if (Array.isArray(node)) return node.flatMap((item, i) => undatedDeprecations(item, `${pointer}/${i}`));
  if (!isObject(node)) return [];
  const dated = (key: string) => typeof node[key] === "string" && DATE.test(node[key] as string);
  const own = node.deprecated === true && !(dated("x-deprecated-at") && dated("x-sunset")) ? [pointer] : [];
  return [
    ...own,
    ...Object.entries(node as JsonObject).flatMap(([key, value]) =>
      undatedDeprecations(value, `${pointer}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`),
    ),
  ];
}

describe("deprecations", () => {
  it("in the contract all carry x-deprecated-at and x-sunset", () => {
    expect(undatedDeprecations(loadDocument("openapi.json"))).toEqual([]);
    expect(loadDocument("openapi.json").info).toMatchObject({
      "x-changelog": expect.stringMatching(/^https:\/\//),
    });
  });

  it("are found where a field lacks a date", () => {
    const field = { type: "string", deprecated: true, "x-deprecated-at": "2026-11-01" } as JsonObject;
    const dated = { ...field, "x-sunset": "2027-06-01" };
    expect(undatedDeprecations({ properties: { a: field, b: dated } })).toEqual(["#/properties/a"]);
  });

  it("fail the lint for an operation or parameter without both dates", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "entrada-deprecation-"));
    try {
      const file = path.join(dir, "openapi.yaml");
      writeFileSync(
        file,
        [
          "openapi: 3.1.0",
          'info: {title: x, version: "1", license: {name: MIT, url: "https://x.test"}}',
          'servers: [{url: "https://x.test"}]',
          "security: []",
          "paths:",
          "  /a:",
          "    get:",
          "      operationId: a",
          "      deprecated: true",
          '      x-sunset: "2027-13"',
          "      parameters:",
          "        - {name: q, in: query, deprecated: true, schema: {type: string}}",
          '      responses: {"200": {description: ok}, "400": {description: bad}}',
        ].join("\n"),
      );
      const rules = lintFile(file).problems.map((p: { ruleId: string }) => p.ruleId);
      expect(rules).toEqual(
        expect.arrayContaining([
          "rule/deprecated-operation-dates",
          "rule/deprecated-parameter-dates",
          "rule/sunset-is-a-date",
        ]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
