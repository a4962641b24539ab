import { afterEach, expect, it } from "vitest";
import { checkChangesets } from "../src/changesets.ts";
import { resolveBase } from "../src/git.ts";
import { surfaceBumpErrors, surfaceChanges } from "../src/surface.ts";
import { type FixtureRepo, fixtureRepo, manifest } from "./fixture.ts";

const report = (lines: string[]) =>
  ['## API Report File for "@entrada/sdk"', "", "```ts", "", "// @public", ...lines, "", "```", ""].join(
    "\n",
  );

let repo: FixtureRepo | undefined;
afterEach(() => repo?.remove());

function gate(r: FixtureRepo): string[] {
  const base = resolveBase(r.root, {});
  if (!base) throw new Error("no base");
  const { added, released } = checkChangesets(r.root, base);
  return surfaceBumpErrors(surfaceChanges(r.root, base), added, base, released);
}

function workspace(): FixtureRepo {
  repo = fixtureRepo({
    "packages/sdk/package.json": manifest("@entrada/sdk"),
    "packages/sdk/etc/index.api.md": report(["export function paginate(limit: number): string[];"]),
  });
  return repo;
}

it("asks a renamed export for a major changeset, naming the old declaration, and passes with one", () => {
  const r = workspace();
  r.write("packages/sdk/etc/index.api.md", report(["export function pages(limit: number): string[];"]));
  expect(gate(r)).toEqual([
    "@entrada/sdk's public API lost or changed `export function paginate(limit: number): string[];` (packages/sdk/etc/index.api.md since the merge base with main): that needs a major changeset for @entrada/sdk (`pnpm changeset`); the report itself comes from `pnpm api:update`",
  ]);
  r.write(".changeset/rename.md", '---\n"@entrada/sdk": minor\n---\n\nRenamed.\n');
  expect(gate(r)).toHaveLength(1);
  r.write(".changeset/rename.md", '---\n"@entrada/sdk": major\n---\n\nRenamed `paginate` to `pages`.\n');
  expect(gate(r)).toEqual([]);
});

it("asks an addition for a minor changeset at least", () => {
  const r = workspace();
  r.write(
    "packages/sdk/etc/index.api.md",
    report(["export function paginate(limit: number): string[];", "export function pages(): void;"]),
  );
  expect(gate(r)[0]).toContain("gained `export function pages(): void;`");
  r.write(".changeset/add.md", '---\n"@entrada/sdk": minor\n---\n\nAdded `pages`.\n');
  expect(gate(r)).toEqual([]);
});

it("ignores API Extractor's comments", () => {
  const r = workspace();
  r.write(
    "packages/sdk/etc/index.api.md",
    report(["// (undocumented)", "export function paginate(limit: number): string[];"]),
  );
  expect(gate(r)).toEqual([]);
});

it("takes a major release (`pnpm changeset version` consumed the changeset) for a major changeset", () => {
  const r = workspace();
  r.write("packages/sdk/etc/index.api.md", report(["export function pages(limit: number): string[];"]));
  r.write("packages/sdk/package.json", manifest("@entrada/sdk", { version: "1.1.0" }));
  expect(gate(r)[0]).toContain("needs a major changeset");
  r.write("packages/sdk/package.json", manifest("@entrada/sdk", { version: "2.0.0" }));
  expect(gate(r)).toEqual([]);
});
