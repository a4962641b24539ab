#!/usr/bin/env node
// The mock's node entry (`nodeHandler` of the built dist/node) over an engine that costs nothing: it answers each
// benchmarked request with the bytes and headers the mock sent for it (captured by bench/cost.mjs, as for
// bench/bare-server.mjs). Next to the bare server it measures what the node entry adds; next to the mock, what the
// engine adds over HTTP.
//   node bench/entry-server.mjs <port> <captured.json> [dist]
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join, resolve } from "node:path";

const [port, file, dist = join(import.meta.dirname, "../dist")] = process.argv.slice(2);
const { nodeHandler } = await import(join(resolve(dist), "node/index.js"));
/** @type {Array<{method: string, path: string, status: number, headers: Record<string, string>, body: string}>} */
const captured = JSON.parse(readFileSync(file, "utf8"));
const routes = captured.map((c) => ({
  ...c,
  bytes: Buffer.from(c.body, "utf8"),
  pattern: new RegExp(`^${c.path.replace(/[.?+^$()[\]\\]/g, "\\$&").replace(/\*/g, "[^/]+")}(?:\\?.*)?$`),
}));
const free = {
  options: { maxBodyBytes: 1_048_576, clients: [] },
  respond(request) {
    const path = request.url.slice(request.url.indexOf("/", "http://".length));
    const route = routes.find((r) => r.method === request.method && r.pattern.test(path));
    if (!route) return { status: 404, headers: {}, body: null };
    return { status: route.status, headers: { ...route.headers }, body: route.bytes };
  },
  // The node entry asks for its pipeline (admin guard, mounts): here nothing but the answer above.
  responder() {
    return (request) => this.respond(request);
  },
};
createServer(
  { keepAliveTimeout: 5000 },
  nodeHandler(free, `127.0.0.1:${port}`, { docs: false, biAssistant: false }),
).listen(Number(port), "127.0.0.1");
