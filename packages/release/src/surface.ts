import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { REPORT_FOLDER, UPDATE_COMMAND } from "./api-report.ts";
import type { Bump, Changeset } from "./changesets.ts";
import { type Base, fileAt } from "./git.ts";
import { publishedPackages } from "./workspace.ts";

const RANK = { none: 0, patch: 1, minor: 2, major: 3 } as const;

/** The surface lines of an API report: the declarations, without API Extractor's comments. */
function surface(report: string): string[] {
  return report
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("//") && !line.startsWith("```"));
}

export interface SurfaceChange {
  pkg: string;
  report: string;
  /** Declarations the base's report had and this one does not (a removal, or the old side of a change). */
  removed: string[];
  added: string[];
}

/** How each published package's reviewed API reports changed since `base`. */
export function surfaceChanges(root: string, base: Base): SurfaceChange[] {
  const changes: SurfaceChange[] = [];
  for (const pkg of publishedPackages(root)) {
    const folder = path.join(root, pkg.dir, REPORT_FOLDER);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder).filter((name) => name.endsWith(".api.md"))) {
      const relative = `${pkg.dir}/${REPORT_FOLDER}/${file}`;
      const before = fileAt(root, base.commit, relative);
      if (before === undefined) continue;
      const now = surface(readFileSync(path.join(folder, file), "utf8"));
      const then = surface(before);
      const nowSet = new Set(now);
      const thenSet = new Set(then);
      const removed = then.filter((line) => !nowSet.has(line));
      const added = now.filter((line) => !thenSet.has(line));
      if (removed.length > 0 || added.length > 0)
        changes.push({ pkg: pkg.name, report: relative, removed, added });
    }
  }
  return changes;
}

/**
 * A reviewed surface that lost or changed a declaration is a breaking change: the package needs a `major`
 * changeset added since the base (or a major release: `released`, its version bumps); one that only gained
 * declarations needs at least `minor`.
 */
export function surfaceBumpErrors(
  changes: SurfaceChange[],
  added: Changeset[],
  base: Base,
  released: ReadonlyMap<string, Bump> = new Map(),
): string[] {
  const bumps = new Map<string, number>([...released].map(([name, bump]) => [name, RANK[bump]]));
  for (const changeset of added) {
    for (const release of changeset.releases) {
      bumps.set(release.name, Math.max(bumps.get(release.name) ?? 0, RANK[release.type]));
    }
  }
  const errors: string[] = [];
  for (const change of changes) {
    const needed = change.removed.length > 0 ? "major" : "minor";
    if ((bumps.get(change.pkg) ?? 0) >= RANK[needed]) continue;
    const what =
      change.removed.length > 0
        ? `lost or changed \`${change.removed[0]}\`${change.removed.length > 1 ? ` and ${change.removed.length - 1} more line(s)` : ""}`
        : `gained \`${change.added[0]}\``;
    errors.push(
      `${change.pkg}'s public API ${what} (${change.report} since the ${base.label}): that needs a ${needed} changeset for ${change.pkg} (\`pnpm changeset\`); the report itself comes from \`${UPDATE_COMMAND}\``,
    );
  }
  return errors;
}
