#!/usr/bin/env node
// Copies msw's mockServiceWorker.js (matching the installed msw version) into a public folder:
//   node scripts/copy-worker.mjs <public-dir>
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const target = resolve(process.argv[2] ?? "public");
const require = createRequire(import.meta.url);
const source = require.resolve("msw/mockServiceWorker.js");
mkdirSync(target, { recursive: true });
copyFileSync(source, join(target, "mockServiceWorker.js"));
console.log(`mockServiceWorker.js → ${join(target, "mockServiceWorker.js")}`);
