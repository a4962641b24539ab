// `pnpm release:version`: turns the pending changesets into versions and changelogs, then brings SDK_VERSION and
// the released-contract baseline along (see src/version.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { releaseVersion } from "../src/version.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
for (const file of releaseVersion(root)) console.log(`release: updated ${file}`);
