/**
 * A server that differs from the contract on purpose, for trying the contract proxy and the verifier (README,
 * tests, bench): a relay in front of a real mock that makes exactly three changes —
 *
 *   1. renames `name` to `title` in `getEvent`'s 200 body (a renamed field: the required `name` is missing;
 *      the contract allows members it does not list, so `title` itself is no violation),
 *   2. answers `listVenues` with `410 Gone` (a status the operation does not declare),
 *   3. drops `Idempotent-Replayed` from every answer (a replayed write no longer says so).
 *
 * Everything else is the mock's answer, byte for byte.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type MockServer, startMockServer } from "../node/index.ts";
import { Upstream } from "./upstream.ts";

/** The differences the relay makes, as the proxy and the verifier must report them (operation, rule, pointer). */
export const RELAY_DIFFERENCES = [
  { operationId: "getEvent", rule: "schema", pointer: "/body/name" },
  { operationId: "listVenues", rule: "status", pointer: "/status" },
  { operationId: "createCart", rule: "replay", pointer: "/header/idempotent-replayed" },
] as const;

export interface DriftingRelay {
  url: string;
  /** The mock behind it (unmodified). */
  mock: MockServer;
  server: Server;
  close(): Promise<void>;
}

const EVENT = /^\/shop\/v1\/discovery\/events\/[^/?]+(?:\?|$)/;
const VENUES = /^\/shop\/v1\/discovery\/venues(?:\?|$)/;

export async function startDriftingRelay(
  options: { port?: number; host?: string; mockPort?: number } = {},
): Promise<DriftingRelay> {
  const { port = 0, host = "127.0.0.1", mockPort = 0 } = options;
  const mock = await startMockServer({
    port: mockPort,
    host,
    docs: false,
    rateLimit: false,
  });
  const upstream = new Upstream(mock.url);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = req.url ?? "/";
      const method = req.method ?? "GET";
      try {
        if (method === "GET" && VENUES.test(path)) {
          res.writeHead(410, { "content-type": "application/problem+json", "x-log-id": "log_relay_gone" });
          res.end(JSON.stringify({ type: "about:blank", title: "Gone", status: 410 }));
          return;
        }
        const answer = await upstream.send(
          method,
          path,
          req.headers,
          chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : null,
        );
        const headers = { ...answer.headers };
        delete headers["idempotent-replayed"];
        delete headers["transfer-encoding"];
        delete headers.connection;
        delete headers["keep-alive"];
        let body: Buffer = Buffer.concat(await answer.body.toArray());
        if (method === "GET" && EVENT.test(path) && answer.status === 200) {
          const event = JSON.parse(body.toString("utf8")) as Record<string, unknown>;
          const { name, ...rest } = event;
          body = Buffer.from(JSON.stringify({ ...rest, title: name }));
          headers["content-length"] = String(body.length);
        }
        res.writeHead(answer.status, headers);
        res.end(body);
      } catch (error) {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    mock,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await upstream.close();
      await mock.close();
    },
  };
}
