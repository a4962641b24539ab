import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A throwaway git repository shaped like this workspace: `main` with one commit, a branch checked out. */
export interface FixtureRepo {
  root: string;
  write(file: string, text: string): void;
  git(...args: string[]): string;
  commit(message: string): void;
  remove(): void;
}

export function fixtureRepo(files: Record<string, string>): FixtureRepo {
  const root = mkdtempSync(path.join(tmpdir(), "entrada-release-"));
  const git = (...args: string[]) =>
    execFileSync("git", args, {
      cwd: root,
      encoding: "utf8",
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@example.test",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@example.test",
      },
    });
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  };
  git("init", "--quiet", "--initial-branch=main");
  for (const [file, text] of Object.entries(files)) write(file, text);
  const commit = (message: string) => {
    git("add", "-A");
    git("commit", "--quiet", "--allow-empty", "-m", message);
  };
  commit("base");
  git("checkout", "--quiet", "-b", "topic");
  return { root, write, git, commit, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** A published package.json (`files: ["dist", "README.md"]`). */
export function manifest(name: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ name, version: "1.0.0", files: ["dist", "README.md"], ...extra }, null, 2)}\n`;
}
