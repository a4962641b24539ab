import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiEntries, apiReports, lineChanges } from "../src/api-report.ts";
import { publishedPackages, type WorkspacePackage } from "../src/workspace.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

describe("apiEntries", () => {
  it("lists one report per typed export of every published package but the contract", () => {
    const byName = new Map(publishedPackages(repo).map((pkg) => [pkg.name, pkg]));
    const reports = (name: string) =>
      apiEntries(repo, byName.get(name) as WorkspacePackage).map((e) => `${e.subpath} ${e.report}`);
    expect(reports("@entrada/sdk")).toContain("./webhooks etc/webhooks.api.md");
    expect(reports("@entrada/sdk")).toEqual(
      expect.arrayContaining(["./sqlite etc/sqlite.api.md", "./postgres etc/postgres.api.md"]),
    );
    expect(reports("@entrada/sdk")).toHaveLength(11);
    expect(reports("@entrada/shop-widget")).toEqual([
      ". etc/index.api.md",
      "./react etc/react.api.md",
      "./sdk etc/sdk.api.md",
    ]);
    expect(reports("@entrada/openapi")).toEqual([]);
  });
});

describe("the API report gate on a package of its own", () => {
  let root: string;
  let pkg: WorkspacePackage;
  const declarations = (text: string) =>
    writeFileSync(path.join(root, "packages/demo/dist/index.d.ts"), text);
  const report = () => path.join(root, "packages/demo/etc/index.api.md");

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "entrada-api-"));
    mkdirSync(path.join(root, "packages/demo/dist"), { recursive: true });
    symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
    const manifest = {
      name: "@entrada/demo",
      version: "1.0.0",
      exports: { ".": { types: "./dist/index.d.ts", default: "./dist/index.js" } },
    };
    writeFileSync(path.join(root, "packages/demo/package.json"), JSON.stringify(manifest));
    pkg = { name: manifest.name, dir: "packages/demo", manifest, published: true };
    declarations("/** Pages of a list. */\nexport declare function paginate(limit: number): string[];\n");
    expect(apiReports(root, pkg, true).errors).toEqual([]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("passes while the declarations match the report", () => {
    expect(readFileSync(report(), "utf8")).toContain("export function paginate(limit: number): string[];");
    expect(apiReports(root, pkg, false).errors).toEqual([]);
  });

  it("fails a renamed export naming both names and the command, and passes once the report is updated", () => {
    declarations("/** Pages of a list. */\nexport declare function pages(limit: number): string[];\n");
    const { errors } = apiReports(root, pkg, false);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      "@entrada/demo (main entry): the public API differs from packages/demo/etc/index.api.md",
    );
    expect(errors[0]).toContain("- export function paginate(limit: number): string[];");
    expect(errors[0]).toContain("+ export function pages(limit: number): string[];");
    expect(errors[0]).toContain("run `pnpm api:update`");
    expect(apiReports(root, pkg, true).errors).toEqual([]);
    expect(apiReports(root, pkg, false).errors).toEqual([]);
  });

  it("fails a report edited by hand", () => {
    const text = readFileSync(report(), "utf8");
    writeFileSync(report(), text.replace("limit: number", "limit: number, offset?: number"));
    expect(apiReports(root, pkg, false).errors[0]).toContain("run `pnpm api:update`");
    writeFileSync(report(), text);
  });

  it("fails a report left behind by a removed entry, and asks for a build when declarations are missing", () => {
    writeFileSync(path.join(root, "packages/demo/etc/old.api.md"), "x\n");
    expect(apiReports(root, pkg, false).errors).toEqual([
      "packages/demo/etc/old.api.md reports an entry @entrada/demo no longer exports: run `pnpm api:update`",
    ]);
    rmSync(path.join(root, "packages/demo/etc/old.api.md"));
    rmSync(path.join(root, "packages/demo/dist/index.d.ts"));
    expect(apiReports(root, pkg, false).errors).toEqual([
      "@entrada/demo has no built declarations (packages/demo/dist/index.d.ts): run `pnpm build` first",
    ]);
  });
});

describe("lineChanges", () => {
  it("shows removed lines, then added ones, bounded", () => {
    expect(lineChanges("a\nb\nc\n", "a\nc\nd\n")).toEqual(["- b", "+ d"]);
    expect(lineChanges("", Array.from({ length: 12 }, (_, i) => `l${i}`).join("\n"), 3)).toEqual([
      "+ l0",
      "+ l1",
      "+ l2",
      "… 9 more line(s)",
    ]);
  });
});
