// CI gate: every pending changeset names a published package of this workspace, and every published package
// whose published sources changed since the base (the merge base with main, or the last release tag) is named
// by a changeset added since then (or released: its version went up, as `pnpm changeset version` does); a public
// API report that lost or changed a declaration needs a major one.
// Exit 1 with one line per problem, each naming its fix.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { checkChangesets } from "../src/changesets.ts";
import { resolveBase } from "../src/git.ts";
import { surfaceBumpErrors, surfaceChanges } from "../src/surface.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const base = resolveBase(root);
const report = checkChangesets(root, base);
if (base)
  report.errors.push(...surfaceBumpErrors(surfaceChanges(root, base), report.added, base, report.released));
for (const error of report.errors) console.error(`changesets: ${error}`);
if (report.errors.length > 0) process.exit(1);
const where = base
  ? `since the ${base.label} (${base.commit.slice(0, 7)})`
  : "(main before its first release tag: no change to measure)";
console.log(
  `changesets: ${report.changed.size} published package(s) changed ${where}, each named by one of ${report.added.length} new changeset(s)` +
    (report.released.size > 0 ? ` or released (${[...report.released.keys()].join(", ")})` : ""),
);
