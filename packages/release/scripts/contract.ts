// The contract gate. `--check` (CI): bundle the contract, classify its changes against the last release's, and fail
// unless .changeset/contract-changes.md carries that classification with the bump it needs and DECISIONS.md names
// every breaking change. `--changeset`: write (or remove) .changeset/contract-changes.md from the classification.
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { bundleContract } from "../src/contract/bundle.ts";
import {
  CONTRACT_CHANGESET,
  checkContract,
  contractChangeset,
  renderClassification,
} from "../src/contract/gate.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const write = process.argv.includes("--changeset");

try {
  const current = await bundleContract(root);
  const report = checkContract(root, current);
  const file = path.join(root, CONTRACT_CHANGESET);
  if (write) {
    if (report.changes.length === 0) {
      if (existsSync(file)) rmSync(file);
      console.log("contract: no change since the last release; no contract changeset needed");
    } else {
      const existing = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      writeFileSync(file, contractChangeset(report.changes, existing));
      console.log(`contract: wrote ${CONTRACT_CHANGESET}\n\n${renderClassification(report.changes)}`);
      const rest = checkContract(root, current).errors;
      for (const error of rest) console.error(`contract: still to do: ${error}`);
    }
  } else {
    for (const error of report.errors) console.error(`contract: ${error}`);
    if (report.errors.length > 0) process.exit(1);
    console.log(
      `contract: ${report.changes.length} change(s) since the last release, ${report.changes.filter((c) => c.kind === "breaking").length} breaking, each recorded`,
    );
  }
} catch (error) {
  console.error(`contract: ${(error as Error).message}`);
  process.exit(1);
}
