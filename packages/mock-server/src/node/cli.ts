#!/usr/bin/env node
/**
 * entrada-mock — run the Entrada mock server (see cli-main.ts for the options).
 * This shim only turns on Node's on-disk compile cache first, so every start after the first skips compiling
 * the bundle (start-up is dominated by module loading, not by the engine).
 */
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// `entrada-mock trigger …` is a client of a running mock (trigger.ts); everything else starts one.
const args = process.argv.slice(2);
if (args[0] === "--") args.shift();
if (args[0] === "trigger") {
  const { triggerMain } = await import("./trigger.ts");
  process.exitCode = await triggerMain(
    args.slice(1),
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    process.env,
  );
} else {
  await import("./cli-main.ts");
}
