/**
 * `pnpm drifting-relay [--port 4030]`: starts a server that differs from the contract on purpose (a mock behind a
 * relay that renames a field, answers an undeclared status and drops a replay header; see
 * src/proxy/drifting-relay.ts), to try `entrada-mock proxy` and `entrada-mock verify` against.
 */
import { parseArgs } from "node:util";
import { startDriftingRelay } from "../src/proxy/drifting-relay.ts";

const argv = process.argv.slice(2);
if (argv[0] === "--") argv.shift();
const { values } = parseArgs({ args: argv, options: { port: { type: "string", default: "4030" } } });
const port = Number(values.port);
// The mock behind it takes the next port (a free one when the relay's is 0).
const relay = await startDriftingRelay({ port, mockPort: port === 0 ? 0 : port + 1 });
console.log(
  [
    "",
    `  Drifting relay  ${relay.url}   (in front of an unmodified mock at ${relay.mock.url})`,
    "  It differs from the contract in exactly three ways:",
    "    getEvent     renames name → title in the 200 body",
    "    listVenues   answers 410 Gone (not declared)",
    "    every write  loses Idempotent-Replayed on a replay",
    "",
    `  Next: pnpm mock proxy --upstream ${relay.url}    then open http://127.0.0.1:4020/__mock/drift`,
    "",
  ].join("\n"),
);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    relay.close().then(() => process.exit(0));
  });
