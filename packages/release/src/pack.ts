import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import type { WorkspacePackage } from "./workspace.ts";

const require = createRequire(import.meta.url);

/** The fields every published package.json must have (VERSIONING.md; npm shows them on the package's page). */
export const REQUIRED_METADATA = [
  "description",
  "license",
  "repository",
  "homepage",
  "bugs",
  "files",
  "sideEffects",
  "engines",
] as const;

/** Missing metadata of a published package, one sentence each (empty when complete). */
export function metadataProblems(root: string, pkg: WorkspacePackage): string[] {
  const problems: string[] = [];
  for (const field of REQUIRED_METADATA) {
    if (pkg.manifest[field] === undefined) problems.push(`${pkg.dir}/package.json has no \`${field}\``);
  }
  const files = pkg.manifest.files ?? [];
  for (const file of ["LICENSE", "CHANGELOG.md", "README.md"]) {
    if (!readdirSync(path.join(root, pkg.dir)).includes(file)) problems.push(`${pkg.dir}/${file} is missing`);
    else if (file !== "LICENSE" && file !== "README.md" && !files.includes(file)) {
      problems.push(`${pkg.dir}/package.json \`files\` does not ship ${file}`);
    }
  }
  return problems;
}

/**
 * Packs `pkg` with pnpm into `destination` (workspace ranges become the versions being published, as on
 * `pnpm publish`) and returns the tarball's path.
 */
export function pack(root: string, pkg: WorkspacePackage, destination: string): string {
  // The pnpm running this script when there is one (`npm_execpath`), else the pinned one through npx.
  const pnpm = process.env.npm_execpath;
  const [command, args]: [string, string[]] = !pnpm?.includes("pnpm")
    ? ["npx", ["-y", "pnpm@12.21.0"]]
    : /\.[cm]?js$/.test(pnpm)
      ? [process.execPath, [pnpm]]
      : [pnpm, []];
  const output = execFileSync(command, [...args, "pack", "--pack-destination", destination, "--json"], {
    cwd: path.join(root, pkg.dir),
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  const parsed = JSON.parse(output.slice(output.indexOf("{"))) as { filename: string };
  return path.isAbsolute(parsed.filename) ? parsed.filename : path.join(destination, parsed.filename);
}

/** publint (strict: warnings fail too) on the tarball as the registry would receive it. */
export async function publintProblems(pkg: WorkspacePackage, tarball: string): Promise<string[]> {
  const data = readFileSync(tarball);
  const { messages, pkg: manifest } = await publint({
    pack: { tarball: data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength) as ArrayBuffer },
    strict: true,
    level: "warning",
  });
  return messages.map(
    (message) => `publint: ${pkg.name}: ${formatMessage(message, manifest) ?? message.code}`,
  );
}

/**
 * are-the-types-wrong on the tarball: every entry's types resolve in every module mode the package supports
 * (ESM-only packages are checked with attw's `esm-only` profile; the dual SDK in every mode).
 */
export function attwProblems(pkg: WorkspacePackage, tarball: string): string[] {
  const exports = pkg.manifest.exports ?? {};
  const dual = JSON.stringify(exports).includes('"require"');
  // Assets and data (the widget's style sheet, the docs server's reference page, the SDK's samples) have no types.
  const assets = Object.entries(exports)
    .filter(([, target]) => typeof target === "string" && /\.(css|html|json)$/.test(target))
    .map(([subpath]) => subpath);
  const bin = path.join(
    path.dirname(require.resolve("@arethetypeswrong/cli/package.json")),
    "dist",
    "index.js",
  );
  const result = spawnSync(
    process.execPath,
    [
      bin,
      tarball,
      "--format",
      "table-flipped",
      "--no-emoji",
      "--no-color",
      ...(dual ? [] : ["--profile", "esm-only"]),
      ...(assets.length > 0 ? ["--exclude-entrypoints", ...assets] : []),
    ],
    { encoding: "utf8" },
  );
  if (result.status === 0) return [];
  return [`attw: ${pkg.name}:\n${`${result.stdout}${result.stderr}`.trim()}`];
}
