// The benches run the built mock (`dist/`). A dist older than its sources measures code that is no longer there —
// and looks plausible doing it — so every bench that starts `dist/cli.js` builds first when any source file, the
// contract it bundles or the build config is newer than the build.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

/** The newest modification time (ms) of a file or of any file under a directory. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Builds `root/dist` with tsup unless it exists and is newer than everything it is built from. */
export function ensureFreshDist(root) {
  const built = join(root, "dist/cli.js");
  const inputs = [
    join(root, "src"),
    join(root, "tsup.config.ts"),
    join(root, "node_modules/@entrada/openapi/generated/openapi.json"),
  ].filter((path) => existsSync(path));
  const stale = !existsSync(built) || inputs.some((input) => newest(input) > statSync(built).mtimeMs);
  if (!stale) return;
  console.log("building dist/ first (missing or older than its sources) …");
  execFileSync(join(root, "node_modules/.bin/tsup"), { cwd: root, stdio: "inherit" });
}
