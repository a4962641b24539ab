import { afterEach, describe, expect, it } from "vitest";
import { checkChangesets, versionBump } from "../src/changesets.ts";
import { resolveBase } from "../src/git.ts";
import { closest } from "../src/names.ts";
import { type FixtureRepo, fixtureRepo, manifest } from "./fixture.ts";

let repo: FixtureRepo | undefined;
afterEach(() => repo?.remove());

function workspace(): FixtureRepo {
  repo = fixtureRepo({
    "packages/sdk/package.json": manifest("@entrada/sdk"),
    "packages/sdk/src/index.ts": "export const a = 1;\n",
    "packages/openapi/package.json": manifest("@entrada/openapi", { files: ["generated", "src"] }),
    "packages/openapi/generated/openapi.json": "{}\n",
    "examples/demo/package.json": `${JSON.stringify({ name: "@entrada/example-demo", private: true })}\n`,
    ".changeset/README.md": "# Changesets\n",
  });
  return repo;
}

const check = (r: FixtureRepo) => checkChangesets(r.root, resolveBase(r.root, {}));

describe("the changeset gate", () => {
  it("passes a branch that changed no published source", () => {
    const r = workspace();
    r.write("packages/sdk/test/a.test.ts", "test\n");
    r.write("packages/sdk/README.md", "# docs\n");
    r.write("examples/demo/index.ts", "x\n");
    r.commit("tests and docs");
    expect(check(r)).toMatchObject({ errors: [], changed: new Map() });
  });

  it("fails a source change without a changeset, naming the package, the file and the command", () => {
    const r = workspace();
    r.write("packages/sdk/src/index.ts", "export const b = 1;\n");
    r.commit("rename");
    const { errors } = check(r);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(
      "@entrada/sdk changed since the merge base with main (packages/sdk/src/index.ts)",
    );
    expect(errors[0]).toContain("run `pnpm changeset`");
  });

  it("sees uncommitted changes and generated files in `files`", () => {
    const r = workspace();
    r.write("packages/openapi/generated/openapi.json", '{"paths":{}}\n');
    expect(check(r).errors[0]).toContain("@entrada/openapi changed");
  });

  it("counts package.json only when a published field changed", () => {
    const r = workspace();
    r.write(
      "packages/sdk/package.json",
      manifest("@entrada/sdk", { scripts: { test: "vitest" }, devDependencies: { x: "1" } }),
    );
    expect(check(r).errors).toEqual([]);
    r.write("packages/sdk/package.json", manifest("@entrada/sdk", { dependencies: { x: "1" } }));
    expect(check(r).errors[0]).toContain("packages/sdk/package.json");
  });

  it("passes once a changeset added on the branch names the package (none included)", () => {
    const r = workspace();
    r.write("packages/sdk/src/index.ts", "export const b = 1;\n");
    r.write("packages/openapi/src/x.yaml", "a: 1\n");
    r.write(
      ".changeset/brave-cats.md",
      '---\n"@entrada/sdk": major\n"@entrada/openapi": none\n---\n\nRenamed `a`.\n',
    );
    const report = check(r);
    expect(report.errors).toEqual([]);
    expect([...report.changed.keys()].sort()).toEqual(["@entrada/openapi", "@entrada/sdk"]);
    expect(report.added.map((c) => c.file)).toEqual([".changeset/brave-cats.md"]);
  });

  it("passes the commit `pnpm changeset version` makes: versions up, the changesets consumed", () => {
    const r = workspace();
    r.write("packages/sdk/src/index.ts", "export const b = 1;\n");
    r.write(".changeset/brave-cats.md", '---\n"@entrada/sdk": minor\n---\n\nAdded `b`.\n');
    r.commit("feature");
    r.git("checkout", "--quiet", "main");
    r.git("merge", "--quiet", "--no-ff", "-m", "merge", "topic");
    r.git("checkout", "--quiet", "-b", "changeset-release/main");
    r.git("rm", "--quiet", ".changeset/brave-cats.md");
    r.write("packages/sdk/package.json", manifest("@entrada/sdk", { version: "1.1.0" }));
    r.write("packages/sdk/CHANGELOG.md", "# @entrada/sdk\n\n## 1.1.0\n\n- Added `b`.\n");
    // The branch is measured from main, which has the change: only the release is new.
    const report = check(r);
    expect(report.errors).toEqual([]);
    expect(report.released).toEqual(new Map([["@entrada/sdk", "minor"]]));
    // A version that did not go up releases nothing: the manifest change needs a changeset.
    r.write("packages/sdk/package.json", manifest("@entrada/sdk", { version: "0.9.0" }));
    expect(check(r).errors[0]).toContain("@entrada/sdk changed since the merge base with main");
  });

  it("does not count a changeset that was already on main", () => {
    const r = workspace();
    r.git("checkout", "--quiet", "main");
    r.write(".changeset/old.md", '---\n"@entrada/sdk": patch\n---\n\nOld.\n');
    r.commit("old changeset");
    r.git("checkout", "--quiet", "-b", "later");
    r.write("packages/sdk/src/index.ts", "export const c = 1;\n");
    expect(check(r).errors[0]).toContain("no changeset names it");
  });

  it("fails a changeset naming a package that does not exist, suggesting the real one", () => {
    const r = workspace();
    r.write(".changeset/typo.md", '---\n"@entrada/skd": patch\n---\n\nFix.\n');
    expect(check(r).errors).toEqual([
      ".changeset/typo.md names @entrada/skd, which is not a package of this workspace (did you mean @entrada/sdk?): fix the name in its front matter, or delete it and run `pnpm changeset`",
    ]);
  });

  it("fails a changeset naming a private package, and one that does not parse", () => {
    const r = workspace();
    r.write(".changeset/private.md", '---\n"@entrada/example-demo": patch\n---\n\nX.\n');
    expect(check(r).errors[0]).toContain("@entrada/example-demo, which is private and never published");
    r.write(".changeset/broken.md", '---\n"@entrada/sdk": huge\n---\n\nX.\n');
    expect(check(r).errors.join("\n")).toContain(".changeset/broken.md is not a changeset");
  });

  it("measures main from its last release tag, and nothing before the first one", () => {
    const r = workspace();
    r.git("checkout", "--quiet", "main");
    expect(resolveBase(r.root, {})).toBeUndefined();
    r.git("tag", "@entrada/sdk@1.0.0");
    r.write("packages/sdk/src/index.ts", "export const d = 1;\n");
    r.commit("after the release");
    const base = resolveBase(r.root, {});
    expect(base?.label).toBe("release tag @entrada/sdk@1.0.0");
    expect(check(r).errors[0]).toContain("since the release tag @entrada/sdk@1.0.0");
  });
});

describe("versionBump", () => {
  it("names the highest part that went up, and nothing for a version that did not", () => {
    expect(versionBump("0.4.2", "1.0.0")).toBe("major");
    expect(versionBump("1.0.0", "1.1.0")).toBe("minor");
    expect(versionBump("1.1.0", "1.1.1")).toBe("patch");
    expect(versionBump("1.1.0", "1.1.0")).toBeUndefined();
    expect(versionBump("1.1.0", "1.0.9")).toBeUndefined();
    expect(versionBump(undefined, "1.0.0")).toBeUndefined();
  });
});

describe("closest", () => {
  it("suggests near names only", () => {
    expect(closest("@entrada/mock-sever", ["@entrada/mock-server", "@entrada/sdk"])).toBe(
      "@entrada/mock-server",
    );
    expect(closest("lodash", ["@entrada/mock-server", "@entrada/sdk"])).toBeUndefined();
  });
});
