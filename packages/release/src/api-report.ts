import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  CompilerState,
  Extractor,
  ExtractorConfig,
  ExtractorLogLevel,
  type ExtractorMessage,
} from "@microsoft/api-extractor";
import type { WorkspacePackage } from "./workspace.ts";

/** Where a package keeps its reports, relative to its folder (API Extractor's convention). */
export const REPORT_FOLDER = "etc";
export const UPDATE_COMMAND = "pnpm api:update";
/** Its public surface is the contract itself, which the contract gate reviews. */
const NOT_REPORTED = new Set(["@entrada/openapi"]);

export interface ApiEntry {
  /** The export subpath: `.`, `./webhooks`. */
  subpath: string;
  /** The built declaration file, absolute. */
  types: string;
  /** The report, relative to the package folder: `etc/index.api.md`, `etc/webhooks.api.md`. */
  report: string;
}

function typesOf(target: unknown): string | undefined {
  if (typeof target === "string") return target.endsWith(".d.ts") ? target : undefined;
  if (target === null || typeof target !== "object") return undefined;
  const conditions = target as Record<string, unknown>;
  if (typeof conditions.types === "string") return conditions.types;
  for (const key of ["import", "default", "node"]) {
    const found = typesOf(conditions[key]);
    if (found) return found;
  }
  return undefined;
}

/** Every export of `pkg` with its own declarations, in the order of its exports map. */
export function apiEntries(root: string, pkg: WorkspacePackage): ApiEntry[] {
  if (NOT_REPORTED.has(pkg.name)) return [];
  const entries: ApiEntry[] = [];
  for (const [subpath, target] of Object.entries(pkg.manifest.exports ?? {})) {
    const types = typesOf(target);
    if (!types) continue;
    const name = subpath === "." ? "index" : subpath.replace(/^\.\//, "").replaceAll("/", "-");
    entries.push({
      subpath,
      types: path.join(root, pkg.dir, types),
      report: `${REPORT_FOLDER}/${name}.api.md`,
    });
  }
  return entries;
}

/** The lines only one side has, `-` for the report's and `+` for the build's, at most `limit` of them. */
export function lineChanges(report: string, built: string, limit = 8): string[] {
  const before = report.split("\n").map((line) => line.trimEnd());
  const after = built.split("\n").map((line) => line.trimEnd());
  const inBefore = new Set(before);
  const inAfter = new Set(after);
  const removed = before
    .filter((line) => line.trim() && !inAfter.has(line))
    .map((line) => `- ${line.trim()}`);
  const added = after.filter((line) => line.trim() && !inBefore.has(line)).map((line) => `+ ${line.trim()}`);
  const all = [...removed, ...added];
  return all.length > limit ? [...all.slice(0, limit), `… ${all.length - limit} more line(s)`] : all;
}

export interface ApiReportResult {
  /** One message per report out of step, each naming the change and the command that fixes it. */
  errors: string[];
  /** Reports written (update mode) or checked. */
  reports: string[];
}

const COMPILER_OPTIONS = {
  target: "es2022",
  module: "esnext",
  moduleResolution: "bundler",
  lib: ["es2023", "dom", "dom.iterable"],
  types: ["node"],
  jsx: "react-jsx",
  skipLibCheck: true,
  strict: true,
};

/**
 * Writes (`update`) or checks each entry's API report of `pkg` from its built declarations; one compiler program
 * serves every entry of the package.
 */
export function apiReports(root: string, pkg: WorkspacePackage, update: boolean): ApiReportResult {
  const entries = apiEntries(root, pkg);
  const errors: string[] = [];
  if (entries.length === 0) return { errors, reports: [] };
  const packageDir = path.join(root, pkg.dir);
  const missing = entries.filter((entry) => !existsSync(entry.types));
  if (missing.length > 0) {
    return {
      errors: [
        `${pkg.name} has no built declarations (${path.relative(root, missing[0]?.types ?? "")}): run \`pnpm build\` first`,
      ],
      reports: [],
    };
  }
  const reportFolder = path.join(packageDir, REPORT_FOLDER);
  mkdirSync(reportFolder, { recursive: true });
  const temp = mkdtempSync(path.join(tmpdir(), "entrada-api-"));
  try {
    const prepare = (entry: ApiEntry) =>
      ExtractorConfig.prepare({
        configObject: {
          projectFolder: packageDir,
          mainEntryPointFilePath: entry.types,
          compiler: { overrideTsconfig: { compilerOptions: COMPILER_OPTIONS, files: [entry.types] } },
          apiReport: {
            enabled: true,
            reportFolder,
            reportTempFolder: temp,
            reportFileName: path.basename(entry.report),
          },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Warning } },
            extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
            tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
          },
        },
        configObjectFullPath: undefined,
        packageJsonFullPath: path.join(packageDir, "package.json"),
      });
    const configs = entries.map(prepare);
    const [first] = configs;
    if (!first) return { errors, reports: [] };
    const compilerState = CompilerState.create(first, {
      additionalEntryPoints: entries.map((entry) => entry.types),
    });
    entries.forEach((entry, index) => {
      const config = configs[index];
      if (!config) return;
      const problems: string[] = [];
      const result = Extractor.invoke(config, {
        localBuild: update,
        compilerState,
        messageCallback: (message: ExtractorMessage) => {
          if (
            message.logLevel === ExtractorLogLevel.Error ||
            (message.logLevel === ExtractorLogLevel.Warning && message.category === "Compiler")
          ) {
            problems.push(message.text);
          }
          message.handled = true;
        },
      });
      const reportFile = path.join(packageDir, entry.report);
      const label = `${pkg.name} (${entry.subpath === "." ? "main entry" : entry.subpath})`;
      if (problems.length > 0) {
        errors.push(
          `${label}: API Extractor could not read ${path.relative(root, entry.types)}: ${problems[0]}`,
        );
        return;
      }
      if (!update && result.apiReportChanged) {
        const built = readFileSync(path.join(temp, path.basename(entry.report)), "utf8");
        const kept = existsSync(reportFile) ? readFileSync(reportFile, "utf8") : "";
        const change = kept ? lineChanges(kept, built).join("\n    ") : "(no report yet)";
        errors.push(
          `${label}: the public API differs from ${pkg.dir}/${entry.report}:\n    ${change}\n  ` +
            `run \`${UPDATE_COMMAND}\`, review the diff and commit it (a breaking change also needs a major changeset)`,
        );
      }
    });
    const expected = new Set(entries.map((entry) => path.basename(entry.report)));
    for (const file of readdirSync(reportFolder)) {
      if (!file.endsWith(".api.md") || expected.has(file)) continue;
      if (update) rmSync(path.join(reportFolder, file));
      else {
        errors.push(
          `${pkg.dir}/${REPORT_FOLDER}/${file} reports an entry ${pkg.name} no longer exports: run \`${UPDATE_COMMAND}\``,
        );
      }
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  return { errors, reports: entries.map((entry) => `${pkg.dir}/${entry.report}`) };
}
