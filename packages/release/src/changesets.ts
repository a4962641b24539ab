import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseChangesetFile } from "@changesets/parse";
import { type Base, changedFiles, fileAt } from "./git.ts";
import { closest } from "./names.ts";
import { type WorkspacePackage, workspacePackages } from "./workspace.ts";

export type Bump = "major" | "minor" | "patch" | "none";

export interface Changeset {
  /** `.changeset/<id>.md` relative to the root. */
  file: string;
  releases: { name: string; type: Bump }[];
  summary: string;
}

/** The pending changesets: every `.changeset/*.md` but the folder's README. */
export function readChangesets(root: string): Changeset[] {
  const dir = path.join(root, ".changeset");
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith(".md") && name !== "README.md")
    .map((name) => {
      const file = `.changeset/${name}`;
      const text = readFileSync(path.join(dir, name), "utf8");
      try {
        const { releases, summary } = parseChangesetFile(text);
        return { file, releases: releases as Changeset["releases"], summary };
      } catch (error) {
        throw new Error(
          `${file} is not a changeset (${(error as Error).message.split("\n")[0]}): its front matter lists ` +
            '`"<package>": major|minor|patch` lines between `---` lines; run `pnpm changeset` to write one',
        );
      }
    });
}

/** Package.json fields that do not change what an installer gets. */
const MANIFEST_FIELDS_NOT_PUBLISHED = new Set(["scripts", "devDependencies"]);

/** Whether a changed file under a published package changes what is published (tests and docs do not). */
export function isPublishedSource(pkg: WorkspacePackage, relative: string): boolean {
  if (/(^|\/)(test|tests|__tests__|bench)\//.test(relative) || /\.test(-d)?\.[cm]?tsx?$/.test(relative))
    return false;
  if (relative.endsWith(".md")) return false;
  const roots = new Set(["src", ...(pkg.manifest.files ?? []).filter((entry) => entry !== "dist")]);
  const first = relative.split("/")[0] ?? "";
  return roots.has(first) || roots.has(relative);
}

function manifestChanged(root: string, base: string, pkg: WorkspacePackage): boolean {
  const before = fileAt(root, base, `${pkg.dir}/package.json`);
  if (before === undefined) return true;
  const strip = (manifest: Record<string, unknown>) =>
    JSON.stringify(
      Object.fromEntries(Object.entries(manifest).filter(([key]) => !MANIFEST_FIELDS_NOT_PUBLISHED.has(key))),
    );
  return strip(JSON.parse(before)) !== strip(pkg.manifest);
}

export interface ChangesetReport {
  /** Every problem, each one a sentence that names the fix. */
  errors: string[];
  /** The published packages changed since the base, with their changed files. */
  changed: Map<string, string[]>;
  /** The changesets added or edited since the base. */
  added: Changeset[];
  /** The published packages whose version went up since the base (`pnpm changeset version` ran), with the bump. */
  released: Map<string, Bump>;
}

/** The bump from `before` to `after` (`0.4.2` → `1.0.0`: major), or undefined when the version did not go up. */
export function versionBump(before: string | undefined, after: string | undefined): Bump | undefined {
  const parts = (version: string | undefined) =>
    /^(\d+)\.(\d+)\.(\d+)/
      .exec(version ?? "")
      ?.slice(1)
      .map(Number);
  const from = parts(before);
  const to = parts(after);
  if (!from || !to) return undefined;
  // The first part that differs decides: up is a release of that size, down is none.
  const i = [0, 1, 2].find((part) => from[part] !== to[part]);
  if (i === undefined || (to[i] as number) < (from[i] as number)) return undefined;
  return (["major", "minor", "patch"] as const)[i];
}

/** The version of `pkg` at `base`, if it existed there. */
function versionAt(root: string, base: string, pkg: WorkspacePackage): string | undefined {
  const before = fileAt(root, base, `${pkg.dir}/package.json`);
  return before === undefined ? undefined : (JSON.parse(before) as { version?: string }).version;
}

/**
 * Checks the pending changesets against the workspace and the change since `base`: every named package exists
 * and is published; every published package whose published sources changed is named by a changeset added
 * since `base` (`none` acknowledges a change integrators cannot see), or released: its version went up since
 * `base`, as `pnpm changeset version` does while it consumes the changesets into the changelogs.
 */
export function checkChangesets(root: string, base: Base | undefined): ChangesetReport {
  const packages = workspacePackages(root);
  const byName = new Map(packages.map((p) => [p.name, p]));
  const published = packages.filter((p) => p.published);
  const errors: string[] = [];
  let changesets: Changeset[] = [];
  try {
    changesets = readChangesets(root);
  } catch (error) {
    errors.push((error as Error).message);
  }
  for (const changeset of changesets) {
    for (const release of changeset.releases) {
      const pkg = byName.get(release.name);
      if (!pkg) {
        const guess = closest(
          release.name,
          published.map((p) => p.name),
        );
        errors.push(
          `${changeset.file} names ${release.name}, which is not a package of this workspace` +
            `${guess ? ` (did you mean ${guess}?)` : ""}: fix the name in its front matter, or delete it and run \`pnpm changeset\``,
        );
      } else if (!pkg.published) {
        errors.push(
          `${changeset.file} names ${release.name}, which is private and never published: remove that line (only ${published.map((p) => p.name).join(", ")} get versions)`,
        );
      }
    }
  }
  const changed = new Map<string, string[]>();
  const released = new Map<string, Bump>();
  let added: Changeset[] = [];
  if (base) {
    const files = changedFiles(root, base.commit);
    const addedFiles = new Set(files.filter((file) => file.startsWith(".changeset/")));
    added = changesets.filter((changeset) => addedFiles.has(changeset.file));
    const named = new Set(added.flatMap((changeset) => changeset.releases.map((release) => release.name)));
    for (const pkg of published) {
      const bump = versionBump(versionAt(root, base.commit, pkg), pkg.manifest.version);
      if (bump) released.set(pkg.name, bump);
      const prefix = `${pkg.dir}/`;
      const own = files
        .filter((file) => file.startsWith(prefix))
        .map((file) => file.slice(prefix.length))
        .filter((relative) =>
          relative === "package.json"
            ? manifestChanged(root, base.commit, pkg)
            : isPublishedSource(pkg, relative),
        );
      if (own.length === 0) continue;
      changed.set(pkg.name, own);
      if (named.has(pkg.name) || released.has(pkg.name)) continue;
      const shown = own.slice(0, 3).map((file) => `${pkg.dir}/${file}`);
      const more = own.length > 3 ? ` and ${own.length - 3} more` : "";
      errors.push(
        `${pkg.name} changed since the ${base.label} (${shown.join(", ")}${more}) and no changeset names it: ` +
          `run \`pnpm changeset\` and pick ${pkg.name} with the bump VERSIONING.md asks for ` +
          `(\`none\` for a change integrators cannot see)`,
      );
    }
  }
  return { errors, changed, added, released };
}
