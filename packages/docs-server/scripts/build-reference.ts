/**
 * Renders the HTML API reference (with the guides) into dist/reference.html with Redocly's `build-docs` (Redoc),
 * from the same snapshot the MCP tools and the /ai mirrors use: `referenceDocument()` of this package.
 *
 *   node --conditions=source --experimental-transform-types scripts/build-reference.ts
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import apiDocument from "@entrada/openapi/openapi.json" with { type: "json" };
import { buildSnapshot } from "../src/content.ts";
import { loadGuidesFromPackages, REFERENCE_HTML } from "../src/node.ts";
import { referenceDocument } from "../src/reference.ts";

const started = performance.now();
const snapshot = buildSnapshot(apiDocument, loadGuidesFromPackages());
if (snapshot.guides.length !== 3) throw new Error(`expected 3 guides, found ${snapshot.guides.length}`);
const dir = mkdtempSync(join(tmpdir(), "entrada-reference-"));
try {
  const input = join(dir, "reference.json");
  writeFileSync(input, JSON.stringify(referenceDocument(apiDocument, snapshot)));
  mkdirSync(dirname(REFERENCE_HTML), { recursive: true });
  const cli = join(
    dirname(createRequire(import.meta.url).resolve("@redocly/cli/package.json")),
    "bin",
    "cli.js",
  );
  const result = spawnSync(
    process.execPath,
    [
      cli,
      "build-docs",
      input,
      "--output",
      REFERENCE_HTML,
      "--title",
      `${snapshot.api.title} — API reference`,
      // Scripts inlined: no CDN at run time (offline mocks, strict networks).
      "--inlineBundle",
      // The reference is served at /reference: menu links and deep links (`/reference#/shop/checkoutcart`) stay there.
      "--openapi.routingBasePath=/reference",
      "--lint-config",
      "off",
    ],
    {
      encoding: "utf8",
      env: {
        ...process.env,
        REDOCLY_TELEMETRY: "off",
        REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
        NO_COLOR: "1",
      },
    },
  );
  if (result.status !== 0) {
    console.error(result.stdout, result.stderr);
    process.exit(result.status ?? 1);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const kib = Math.round(statSync(REFERENCE_HTML).size / 1024);
console.log(`reference: ${REFERENCE_HTML} (${kib} KiB) in ${Math.round(performance.now() - started)} ms`);
