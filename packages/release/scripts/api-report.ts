// API reports: `--check` (CI) fails when a published entry point's built declarations differ from its reviewed
// report under etc/ (a changed surface, or a report edited by hand); `--update` rewrites the reports. Run after
// `pnpm build`. Optional package names narrow the run: `api-report.ts --update @entrada/sdk`.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { apiReports, UPDATE_COMMAND } from "../src/api-report.ts";
import { publishedPackages } from "../src/workspace.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const update = process.argv.includes("--update");
const only = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const packages = publishedPackages(root).filter((pkg) => only.length === 0 || only.includes(pkg.name));
let failed = false;
let count = 0;
for (const pkg of packages) {
  const result = apiReports(root, pkg, update);
  count += result.reports.length;
  for (const error of result.errors) console.error(`api-report: ${error}`);
  failed ||= result.errors.length > 0;
}
if (failed) {
  if (!update) console.error(`api-report: to accept the new surface: ${UPDATE_COMMAND}`);
  process.exit(1);
}
console.log(`api-report: ${count} report(s) ${update ? "written" : "match the built declarations"}`);
