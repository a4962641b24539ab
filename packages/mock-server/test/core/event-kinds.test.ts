import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import openapi from "@entrada/openapi/openapi.json" with { type: "json" };
import { expect, it } from "vitest";

const root = join(import.meta.dirname, "../..");
const contractKinds = new Set(Object.keys(openapi.webhooks));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every `.emit(<first argument>` call in the sources, comments left out. */
function emitCalls(): Array<{ file: string; argument: string }> {
  const calls: Array<{ file: string; argument: string }> = [];
  for (const file of sources(join(root, "src"))) {
    const code = readFileSync(file, "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    for (const match of code.matchAll(/\.emit\(\s*([^,)]*)/g))
      calls.push({ file: file.slice(root.length + 1), argument: (match[1] ?? "").trim() });
  }
  return calls;
}

it("the contract has 30 webhook kinds", () => {
  expect(contractKinds.size).toBe(30);
});

it("every event kind the code can emit is one of the contract's kinds (and each call names it literally)", () => {
  const calls = emitCalls();
  expect(calls.length).toBeGreaterThanOrEqual(20);
  // A computed kind would escape this check: every call site names its kind as a string literal.
  const computed = calls.filter((c) => !/^"[a-z_]+\.[a-z_]+"$/.test(c.argument));
  expect(computed).toEqual([]);
  const unknown = calls.filter((c) => !contractKinds.has(c.argument.slice(1, -1)));
  expect(unknown).toEqual([]);
});

it("every event kind the README names is one of the contract's kinds, and it names every kind the code emits", () => {
  const readme = readFileSync(join(root, "README.md"), "utf8");
  const named = new Set(
    [...readme.matchAll(/`((?:cart|payment|ticket|entrance|order|event|customer)\.[a-z_]+)`/g)].map(
      (m) => m[1] as string,
    ),
  );
  expect(named.size).toBeGreaterThanOrEqual(20);
  expect([...named].filter((kind) => !contractKinds.has(kind))).toEqual([]);
  const emitted = new Set(emitCalls().map((c) => c.argument.slice(1, -1)));
  expect([...emitted].filter((kind) => !named.has(kind))).toEqual([]);
});
