#!/usr/bin/env node
/**
 * entrada-mock — run the Entrada mock server (see cli-main.ts for the options).
 * This shim only turns on Node's on-disk compile cache first, so every start after the first skips compiling
 * the bundle (start-up is dominated by module loading, not by the engine).
 */
import module from "node:module";

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
// `entrada-mock trigger …` and `verify …` are clients of a running server, `proxy …` relays to one, `seed --from`
// turns recordings into a seed; everything else starts a mock.
const args = process.argv.slice(2);
if (args[0] === "--") args.shift();
if (args[0] === "trigger") {
  const { triggerMain } = await import("./trigger.ts");
  process.exitCode = await triggerMain(
    args.slice(1),
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    process.env,
  );
} else if (args[0] === "verify") {
  const { verifyMain } = await import("./verify/main.ts");
  process.exitCode = await verifyMain(
    args.slice(1),
    { out: (line) => console.log(line), err: (line) => console.error(line) },
    process.env,
  );
} else if (args[0] === "proxy") {
  const { proxyMain } = await import("../proxy/main.ts");
  const proxy = await proxyMain(args.slice(1), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
  if (typeof proxy === "number") process.exitCode = proxy;
  else
    for (const signal of ["SIGINT", "SIGTERM"] as const)
      process.once(signal, () => {
        proxy.close().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
} else if (args[0] === "seed") {
  const { seedMain } = await import("../proxy/seed-from.ts");
  process.exitCode = seedMain(args.slice(1), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  });
} else {
  await import("./cli-main.ts");
}
