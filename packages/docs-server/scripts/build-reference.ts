/**
 * Builds the HTML API reference into dist/: the page shell (`reference.html`) and the renderer, Scalar's standalone
 * bundle (`reference-scalar.js`, copied from `@scalar/api-reference`), both served from the docs server's own
 * origin (no CDN: offline mocks, strict networks, a strict CSP). The document it renders is `/reference/openapi.json`,
 * the same snapshot the MCP tools and the /ai mirrors use (`referenceDocument()` of this package); a start script
 * the server writes configures the renderer (and, mounted in the mock, a demo token for "Send").
 *
 *   node --conditions=source --experimental-transform-types scripts/build-reference.ts
 */
import { copyFileSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import apiDocument from "@entrada/openapi/openapi.json" with { type: "json" };
import { buildSnapshot } from "../src/content.ts";
import { loadGuidesFromPackages, REFERENCE_HTML, REFERENCE_SCRIPT } from "../src/node.ts";
import { referenceShell } from "../src/reference-page.ts";

const started = performance.now();
const snapshot = buildSnapshot(apiDocument, loadGuidesFromPackages());
if (snapshot.guides.length !== 3) throw new Error(`expected 3 guides, found ${snapshot.guides.length}`);
mkdirSync(dirname(REFERENCE_HTML), { recursive: true });
writeFileSync(REFERENCE_HTML, referenceShell(`${snapshot.api.title} — API reference`));
// The package exports no subpath for its browser bundle: find it beside the main entry (dist/index.js).
const scalarDist = dirname(createRequire(import.meta.url).resolve("@scalar/api-reference"));
copyFileSync(join(scalarDist, "browser", "standalone.js"), REFERENCE_SCRIPT);
const kib = (file: string) => Math.round(statSync(file).size / 1024);
console.log(
  `reference: ${REFERENCE_HTML} (${kib(REFERENCE_HTML)} KiB) and ${REFERENCE_SCRIPT} (${kib(REFERENCE_SCRIPT)} KiB) in ${Math.round(performance.now() - started)} ms`,
);
