#!/usr/bin/env node
/**
 * entrada-mock — run the Entrada mock server (see cli-main.ts for the options).
 * This shim only turns on Node's on-disk compile cache first, so every start after the first skips compiling
 * the bundle (start-up is dominated by module loading, not by the engine).
 */
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import("./cli-main.ts");
