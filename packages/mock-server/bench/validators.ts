/**
 * Start-up cost of the request validators, same run: run-time compile (Ajv, `new Function`) of every request
 * validator of the bundled contract vs loading the precompiled standalone modules (src/generated/).
 *   node --conditions=source --experimental-transform-types bench/validators.ts
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { newAjv } from "../src/compiler/ajv.ts";
import { compileOperations, type OpenApiDocument } from "../src/core/document.ts";
import { DOC_ID, FORM, paramsSchema, refTo } from "../src/core/validation.ts";

const doc = JSON.parse(
  readFileSync(fileURLToPath(import.meta.resolve("@entrada/openapi/openapi.json")), "utf8"),
) as OpenApiDocument;
let t = performance.now();
const pre = await Promise.all([
  import("../src/generated/validators-plain.js"),
  import("../src/generated/validators-coercing.js"),
]);
const precompiledMs = performance.now() - t;
t = performance.now();
const plain = newAjv(false);
const coercing = newAjv(true);
plain.addSchema(doc as object, DOC_ID);
coercing.addSchema(doc as object, DOC_ID);
let n = 0;
for (const op of compileOperations(doc)) {
  for (const location of ["path", "query", "header"] as const) {
    const schema = paramsSchema(op, location);
    if (!schema) continue;
    coercing.compile(schema);
    n++;
  }
  for (const [media, pointer] of op.body?.media ?? []) {
    if (!pointer) continue;
    (media === FORM ? coercing : plain).compile({ $ref: refTo(pointer) });
    n++;
  }
}
const runtimeMs = performance.now() - t;
const count = Object.keys(pre[0].validators).length + Object.keys(pre[1].validators).length;
const sizes = ["validators-plain.js", "validators-coercing.js"].map((f) => {
  const text = readFileSync(new URL(`../src/generated/${f}`, import.meta.url));
  return { file: f, bytes: text.length, gzip: gzipSync(text, { level: 9 }).length };
});
console.log(
  JSON.stringify(
    {
      validators: count,
      compiledAtRunTime: n,
      precompiledLoadMs: precompiledMs,
      runtimeCompileMs: runtimeMs,
      ratio: runtimeMs / precompiledMs,
      sizes,
    },
    null,
    1,
  ),
);
