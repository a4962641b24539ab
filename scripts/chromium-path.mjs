/**
 * Which Chromium the browser tests drive — one rule for `ensure-chromium.sh`, Playwright's config and the SDK's
 * Chromium test: `CHROMIUM_PATH` when it names an executable, else Debian's `/usr/bin/chromium` (not
 * `chromium-browser`: on Ubuntu that is often a snap shim that exists but does not run, which would skip the install).
 * Run as a script, it prints the path, or exits 1 when there is none (then `ensure-chromium.sh` installs Debian's).
 */
import { accessSync, constants } from "node:fs";
import { argv, env, exit } from "node:process";
import { pathToFileURL } from "node:url";

export const DEBIAN_CHROMIUM = "/usr/bin/chromium";

function executable(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function chromiumPath() {
  return [env.CHROMIUM_PATH, DEBIAN_CHROMIUM].find((path) => path && executable(path));
}

if (argv[1] && import.meta.url === pathToFileURL(argv[1]).href) {
  const path = chromiumPath();
  if (!path) exit(1);
  console.log(path);
}
