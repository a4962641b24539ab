// `pnpm changeset [command]`: the Changesets CLI as is (`pnpm changeset` asks its questions and writes
// .changeset/<name>.md), except that `pnpm changeset version` also brings SDK_VERSION and the released-contract
// baseline along, as `pnpm release:version` does (see src/version.ts).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { changesetCommand } from "../src/version.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
try {
  for (const file of changesetCommand(root, process.argv.slice(2))) console.log(`release: updated ${file}`);
} catch (error) {
  // The CLI has said why on the inherited terminal; keep its exit code.
  process.exit((error as { status?: number }).status ?? 1);
}
