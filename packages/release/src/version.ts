import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { BASELINE } from "./contract/gate.ts";

export const SDK_VERSION_FILE = "packages/sdk/src/core/version.ts";
const CONTRACT = "packages/openapi/generated/openapi.json";

/** The SDK's `SDK_VERSION` module for `version` (the user agent and the OpenTelemetry tracer carry it). */
export function sdkVersionModule(version: string): string {
  return `/** The SDK version (kept equal to package.json by \`pnpm release:version\` and a test). */\nexport const SDK_VERSION = ${JSON.stringify(version)};\n`;
}

/** What follows a version bump: `SDK_VERSION` and the released-contract baseline. Returns the files it wrote. */
export function syncReleasedFiles(root: string): string[] {
  const written: string[] = [];
  const sdk = JSON.parse(readFileSync(path.join(root, "packages/sdk/package.json"), "utf8")) as {
    version: string;
  };
  const versionFile = path.join(root, SDK_VERSION_FILE);
  const module = sdkVersionModule(sdk.version);
  if (!existsSync(versionFile) || readFileSync(versionFile, "utf8") !== module) {
    writeFileSync(versionFile, module);
    written.push(SDK_VERSION_FILE);
  }
  const contract = path.join(root, CONTRACT);
  const baseline = path.join(root, BASELINE);
  if (readFileSync(contract, "utf8") !== (existsSync(baseline) ? readFileSync(baseline, "utf8") : "")) {
    copyFileSync(contract, baseline);
    written.push(BASELINE);
  }
  return written;
}

/**
 * `pnpm changeset <args>`: the Changesets CLI, run from the root with the terminal handed over (its questions);
 * after `version` (versions, changelogs, internal ranges; the pending changesets consumed), {@link syncReleasedFiles},
 * so `pnpm changeset version` and `pnpm release:version` leave the same tree. Returns the files it synced.
 */
export function changesetCommand(root: string, args: readonly string[]): string[] {
  const require = createRequire(import.meta.url);
  const bin = require.resolve("@changesets/cli/bin.js");
  execFileSync(process.execPath, [bin, ...args], { cwd: root, stdio: "inherit" });
  return args[0] === "version" ? syncReleasedFiles(root) : [];
}

/** `pnpm release:version`: `pnpm changeset version`. */
export function releaseVersion(root: string): string[] {
  return changesetCommand(root, ["version"]);
}
