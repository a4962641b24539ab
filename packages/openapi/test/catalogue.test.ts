// The problem catalogue and the cultures are data (src/catalogue, checked against JSON schemas); the SDK, the mock
// and DECISIONS.md are generated from them. These tests pin the data's rules and its clear errors.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { buildCatalogue } from "../scripts/catalogue.mjs";
import { packageDir } from "../scripts/generate.mjs";
import { deref, isObject, type JsonObject, loadDocument, operationsOf } from "./document";

const source = path.join(packageDir, "src/catalogue");
const document = loadDocument("openapi.json");
const operations = operationsOf(document, "paths");
const operationIds = operations.map((op) => String(op.operation.operationId));

interface Catalogue {
  cultures: { tag: string; name: string; default: boolean }[];
  problems: {
    slug: string;
    status: number;
    mockOnly: boolean;
    operations: "*" | string[];
    title: Record<string, string>;
    detail: Record<string, string>;
  }[];
}

let scratch: string | undefined;
afterEach(() => {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
  scratch = undefined;
});

/** A writable copy of src/catalogue. */
function copy(): string {
  scratch = mkdtempSync(path.join(tmpdir(), "entrada-catalogue-"));
  cpSync(source, scratch, { recursive: true });
  return scratch;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, "utf8"));

describe("the catalogue data", () => {
  const catalogue = buildCatalogue(source, operationIds) as Catalogue;

  it("serves the default culture first and has exactly one", () => {
    expect(catalogue.cultures.filter((c) => c.default)).toHaveLength(1);
    expect(catalogue.cultures[0]?.default).toBe(true);
  });

  it("every operation a problem names documents a response with the problem's status", () => {
    const byId = new Map(operations.map((op) => [String(op.operation.operationId), op]));
    const missing: string[] = [];
    for (const problem of catalogue.problems) {
      if (problem.operations === "*") continue;
      for (const id of problem.operations) {
        const responses = (byId.get(id)?.operation.responses ?? {}) as JsonObject;
        if (!(String(problem.status) in responses)) missing.push(`${problem.slug} ${problem.status}: ${id}`);
        else if (!isObject(deref(document, responses[String(problem.status)])))
          missing.push(`${id} unresolved`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("gives every problem a title and a detail in every culture", () => {
    for (const problem of catalogue.problems)
      for (const culture of catalogue.cultures) {
        expect(problem.title[culture.tag], `${problem.slug} ${culture.tag}`).toBeTruthy();
        expect(problem.detail[culture.tag], `${problem.slug} ${culture.tag}`).toBeTruthy();
      }
  });
});

describe("adding a culture is adding a file", () => {
  it("a fifth culture file joins the catalogue, after the default, with its titles", () => {
    const dir = copy();
    const english = readJson(path.join(dir, "cultures/en-GB.json"));
    const romansh = { ...english, tag: "rm-CH", name: "Rumantsch (Svizra)", order: 9 };
    romansh.problems = {
      ...english.problems,
      "not-found": { title: "Betg chattà", detail: "La resursa na exista betg." },
    };
    writeFileSync(path.join(dir, "cultures/rm-CH.json"), JSON.stringify(romansh));
    const catalogue = buildCatalogue(dir, operationIds) as Catalogue;
    expect(catalogue.cultures.map((c) => c.tag)).toEqual(["de-CH", "fr-CH", "it-CH", "en-GB", "rm-CH"]);
    expect(catalogue.problems.find((p) => p.slug === "not-found")?.title["rm-CH"]).toBe("Betg chattà");
  });
});

describe("bad data gives a clear error", () => {
  it("names the file and the field that breaks the schema", () => {
    const dir = copy();
    const data = readJson(path.join(dir, "problems.json"));
    data.problems[0].status = 200;
    writeFileSync(path.join(dir, "problems.json"), JSON.stringify(data));
    expect(() => buildCatalogue(dir, operationIds)).toThrow(
      /problems\.json does not match problems\.schema\.json:\n.*\/problems\/0\/status must be >= 400/,
    );
  });

  it("names an operation the contract does not have", () => {
    const dir = copy();
    const data = readJson(path.join(dir, "problems.json"));
    data.problems.find((p: { slug: string }) => p.slug === "sold-out").operations.push("buyEverything");
    writeFileSync(path.join(dir, "problems.json"), JSON.stringify(data));
    expect(() => buildCatalogue(dir, operationIds)).toThrow(
      '"sold-out" names unknown operations: buyEverything',
    );
  });

  it("names a culture that lacks a problem's texts", () => {
    const dir = copy();
    const french = readJson(path.join(dir, "cultures/fr-CH.json"));
    delete french.problems["sold-out"];
    writeFileSync(path.join(dir, "cultures/fr-CH.json"), JSON.stringify(french));
    expect(() => buildCatalogue(dir, operationIds)).toThrow(/fr-CH\.json: no title and detail for sold-out/);
  });

  it("refuses two default cultures", () => {
    const dir = copy();
    const french = readJson(path.join(dir, "cultures/fr-CH.json"));
    writeFileSync(path.join(dir, "cultures/fr-CH.json"), JSON.stringify({ ...french, default: true }));
    expect(() => buildCatalogue(dir, operationIds)).toThrow(
      /exactly one culture must be the default.*found 2/,
    );
  });
});
