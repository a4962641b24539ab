import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/** The fields of a package.json the release gates read. */
export interface Manifest {
  name: string;
  version?: string;
  private?: boolean;
  files?: string[];
  exports?: Record<string, unknown>;
  bin?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [field: string]: unknown;
}

export interface WorkspacePackage {
  name: string;
  /** The package's folder relative to the repository root, with `/` separators (`packages/sdk`). */
  dir: string;
  manifest: Manifest;
  /** Not `private`: published to the registry, so it gets versions, a changelog and every release gate. */
  published: boolean;
}

/** The folders `pnpm-workspace.yaml` lists (`packages/*`, `examples/*`, `e2e`): each holding a package.json. */
const WORKSPACE_GLOBS = ["packages", "examples"];
const WORKSPACE_SINGLES = ["e2e"];

function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Manifest;
  } catch {
    return undefined;
  }
}

/** Every package of the workspace, published ones first, each list in folder order. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const dirs: string[] = [];
  for (const parent of WORKSPACE_GLOBS) {
    let names: string[] = [];
    try {
      names = readdirSync(path.join(root, parent)).sort();
    } catch {
      continue;
    }
    for (const name of names) dirs.push(`${parent}/${name}`);
  }
  dirs.push(...WORKSPACE_SINGLES);
  const packages: WorkspacePackage[] = [];
  for (const dir of dirs) {
    const manifest = readManifest(path.join(root, dir, "package.json"));
    if (!manifest?.name) continue;
    packages.push({ name: manifest.name, dir, manifest, published: manifest.private !== true });
  }
  return [...packages.filter((p) => p.published), ...packages.filter((p) => !p.published)];
}

/** The published packages only. */
export function publishedPackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter((p) => p.published);
}
