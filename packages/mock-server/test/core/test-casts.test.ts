/**
 * The mock's tests read HTTP answers through the typed readers of `test/helpers.ts` (`read.body(response,
 * "getCart")`, `read.problem`, `read.odataPage`, …), not through object-type casts that hide a wrong guess. The few
 * casts left are kept on purpose (fixture contracts, child-process errors, manifests); a new one needs a reason and
 * a raised bound here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const MOST = 19;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

it(`keeps at most ${MOST} object-type casts in the mock's tests`, () => {
  const root = fileURLToPath(new URL("..", import.meta.url));
  const casts = sources(root).flatMap((file) =>
    readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (/\bas \{/.test(line) ? [`${file.slice(root.length)}:${i + 1}`] : [])),
  );
  expect(casts.length, `casts (read answers with read.* instead):\n${casts.join("\n")}`).toBeLessThanOrEqual(
    MOST,
  );
});
