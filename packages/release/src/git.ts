import { execFileSync } from "node:child_process";

function git(root: string, args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

function tryGit(root: string, args: string[]): string | undefined {
  try {
    return git(root, args);
  } catch {
    return undefined;
  }
}

/** What the release gates compare the working tree with, and why that commit. */
export interface Base {
  commit: string;
  /** For messages: `merge base with main`, `release tag @entrada/sdk@1.2.0`, or the ref given. */
  label: string;
}

/**
 * The commit a change is measured from: `RELEASE_BASE` when set; on a branch, its merge base with `main`; on
 * `main` itself, the last release tag (`@entrada/<name>@<version>`, what `changeset tag` writes). `undefined`
 * when there is nothing to compare with (main before its first release).
 */
export function resolveBase(root: string, env: NodeJS.ProcessEnv = process.env): Base | undefined {
  const given = env.RELEASE_BASE;
  if (given) {
    const commit = tryGit(root, ["merge-base", "HEAD", given]);
    if (!commit) throw new Error(`RELEASE_BASE=${given} is not a commit this checkout knows`);
    return { commit, label: `merge base with ${given}` };
  }
  const branch = tryGit(root, ["symbolic-ref", "--quiet", "--short", "HEAD"]);
  const onMain =
    branch === "main" ||
    (branch === undefined && tryGit(root, ["rev-parse", "HEAD"]) === tryGit(root, ["rev-parse", "main"]));
  const main = tryGit(root, ["rev-parse", "--verify", "--quiet", "main"]);
  if (main && !onMain) {
    const commit = tryGit(root, ["merge-base", "HEAD", "main"]);
    if (commit) return { commit, label: "merge base with main" };
  }
  const tag = tryGit(root, ["describe", "--tags", "--abbrev=0", "--match", "@entrada/*@*"]);
  if (tag) return { commit: git(root, ["rev-parse", `${tag}^{commit}`]), label: `release tag ${tag}` };
  return undefined;
}

/** Files that differ between `base` and the working tree (committed, staged or not), untracked ones included. */
export function changedFiles(root: string, base: string): string[] {
  const changed = git(root, ["diff", "--name-only", "--no-renames", base]).split("\n");
  const untracked = git(root, ["ls-files", "--others", "--exclude-standard"]).split("\n");
  return [...new Set([...changed, ...untracked].filter(Boolean))].sort();
}

/** A file's text at `commit`, or `undefined` when it did not exist there. */
export function fileAt(root: string, commit: string, file: string): string | undefined {
  return tryGit(root, ["show", `${commit}:${file}`]);
}
