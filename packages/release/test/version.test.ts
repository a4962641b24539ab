import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classifyContractChanges } from "../src/contract/classify.ts";
import { BASELINE, CONTRACT_CHANGESET, contractChangeset } from "../src/contract/gate.ts";
import { changesetCommand, SDK_VERSION_FILE, sdkVersionModule } from "../src/version.ts";
import { workspacePackages } from "../src/workspace.ts";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const read = (root: string, file: string) => readFileSync(path.join(root, file), "utf8");
const version = (root: string, dir: string) =>
  JSON.parse(read(root, `${dir}/package.json`)).version as string;

it("SDK_VERSION equals the SDK's package.json version", () => {
  expect(read(repo, SDK_VERSION_FILE)).toBe(sdkVersionModule(version(repo, "packages/sdk")));
});

it("every published package has a changelog", () => {
  for (const pkg of workspacePackages(repo).filter((p) => p.published)) {
    expect(read(repo, `${pkg.dir}/CHANGELOG.md`)).toMatch(new RegExp(`^# ${pkg.name}\\n`));
  }
});

describe("pnpm changeset → pnpm changeset version (pnpm release:version), in a copy of the workspace", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "entrada-version-"));
    const files = [
      "package.json",
      "pnpm-workspace.yaml",
      ".changeset/config.json",
      SDK_VERSION_FILE,
      "packages/openapi/generated/openapi.json",
      BASELINE,
    ];
    for (const pkg of workspacePackages(repo)) {
      files.push(`${pkg.dir}/package.json`);
      if (pkg.published) files.push(`${pkg.dir}/CHANGELOG.md`);
    }
    for (const file of files) cpSync(path.join(repo, file), path.join(root, file), { recursive: true });
    // The changelog generator is resolved from `.changeset/`: lend it the workspace's installed packages.
    symlinkSync(path.join(repo, "node_modules"), path.join(root, "node_modules"));
    // A contract change being released: the baseline must follow it.
    writeFileSync(
      path.join(root, "packages/openapi/generated/openapi.json"),
      '{"openapi":"3.1.0","paths":{}}\n',
    );
    execFileSync("git", ["init", "--quiet"], { cwd: root });
    // What `pnpm changeset` writes after its questions.
    writeFileSync(
      path.join(root, ".changeset/rename-export.md"),
      '---\n"@entrada/sdk": major\n"@entrada/mock-server": minor\n---\n\nRenamed `paginate` to `pages`.\n',
    );
    // What `pnpm contract:changeset` writes for a removed response field.
    const released = JSON.parse(read(repo, "packages/openapi/generated/openapi.json"));
    const next = structuredClone(released);
    delete next.components.schemas.Cart.properties.currency;
    writeFileSync(
      path.join(root, CONTRACT_CHANGESET),
      contractChangeset(classifyContractChanges(released, next)),
    );
    // What `pnpm changeset version` runs (scripts/changeset.ts), and `pnpm release:version` too.
    changesetCommand(root, ["version"]);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("bumps the named packages and their dependents, and consumes the changesets", () => {
    expect(version(root, "packages/sdk")).toBe("1.0.0");
    // The contract changeset makes the contract packages major.
    expect(version(root, "packages/mock-server")).toBe("1.0.0");
    expect(version(root, "packages/openapi")).toBe("1.0.0");
    // Depends on the SDK: a patch release with the new range.
    expect(version(root, "packages/shop-widget")).toBe("0.1.1");
    expect(existsSync(path.join(root, ".changeset/rename-export.md"))).toBe(false);
    expect(existsSync(path.join(root, CONTRACT_CHANGESET))).toBe(false);
  });

  it("puts the contract's classification into the changelogs", () => {
    const openapi = read(root, "packages/openapi/CHANGELOG.md");
    expect(openapi).toMatch(/^# @entrada\/openapi\n\n## 1\.0\.0\n\n### Major Changes\n/);
    expect(openapi).toContain(
      "Contract changes since the last release: 1 breaking, 0 deprecated, 0 not breaking.",
    );
    expect(openapi).toContain("`schema Cart`: `Cart`: property `currency` removed");
    expect(read(root, "packages/sdk/CHANGELOG.md")).toContain(
      "`schema Cart`: `Cart`: property `currency` removed",
    );
  });

  it("writes the changelogs, newest first", () => {
    const sdk = read(root, "packages/sdk/CHANGELOG.md");
    expect(sdk).toMatch(/^# @entrada\/sdk\n\n## 1\.0\.0\n\n### Major Changes\n/);
    expect(sdk).toContain("\n- Renamed `paginate` to `pages`.\n");
    expect(sdk.indexOf("## 1.0.0")).toBeLessThan(sdk.indexOf("## 0.1.0"));
    expect(sdk).toContain("## 0.1.0");
    expect(read(root, "packages/shop-widget/CHANGELOG.md")).toMatch(
      /## 0\.1\.1\n\n### Patch Changes\n\n- Updated dependencies/,
    );
  });

  it("brings SDK_VERSION and the released contract along", () => {
    expect(read(root, SDK_VERSION_FILE)).toBe(sdkVersionModule("1.0.0"));
    expect(read(root, BASELINE)).toBe('{"openapi":"3.1.0","paths":{}}\n');
  });
});
