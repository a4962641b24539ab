#!/usr/bin/env node
// The ceiling for the HTTP figures: a bare node:http server that answers each benchmarked request with the exact
// status, headers and body bytes the mock sent for it (captured by bench/run.mjs just before), and does nothing
// else — no routing beyond the method and path shape, no parsing, no state. The mock's req/s over this server's, in
// the same run, is how close the mock comes to what node:http allows on this machine.
//   node bench/bare-server.mjs <port> <captured.json>
import { readFileSync } from "node:fs";
import { createServer } from "node:http";

const [port, file] = process.argv.slice(2);
/** @type {Array<{method: string, path: string, status: number, headers: Record<string, string>, body: string}>} */
const captured = JSON.parse(readFileSync(file, "utf8"));
// A captured path with a `*` segment matches any value there (the cart id of POST …/cart/{id}/items). The body is
// kept as bytes, encoded once, as the mock keeps its discovery pages: the ceiling does no work the mock skips.
const routes = captured.map((c) => ({
  ...c,
  bytes: Buffer.from(c.body, "utf8"),
  pattern: new RegExp(`^${c.path.replace(/[.?+^$()[\]\\]/g, "\\$&").replace(/\*/g, "[^/]+")}(?:\\?.*)?$`),
}));

createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  const route = routes.find((r) => r.method === req.method && r.pattern.test(req.url ?? ""));
  const answer = () => {
    if (!route) {
      res.writeHead(404, { "content-length": "0" });
      res.end();
      return;
    }
    res.writeHead(route.status, route.headers);
    res.end(route.bytes);
  };
  // Read (and discard) a request body before answering, as the mock does.
  if (req.headers["content-length"] !== undefined || req.headers["transfer-encoding"] !== undefined) {
    req.on("data", () => {});
    req.on("end", answer);
  } else {
    req.resume();
    answer();
  }
}).listen(Number(port), "127.0.0.1");
