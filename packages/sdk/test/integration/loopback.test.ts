/**
 * Against a real HTTP server on loopback with the runtime's own fetch: timeouts really cancel the request (the
 * server sees the connection go away), and retried bodies arrive intact.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createClient, TimeoutError } from "../../src/index.ts";

type Handler = (request: IncomingMessage, body: string, response: ServerResponse) => void;
let handler: Handler = (_req, _body, res) => res.end();
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => {
    body += chunk;
  });
  request.on("end", () => handler(request, body, response));
});
let base = "";

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function token(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ access_token: "tok", token_type: "Bearer", expires_in: 3600 }));
}

it("aborts a hanging request at its timeout: the server sees the connection close", async () => {
  const closed: string[] = [];
  handler = (req, _body, res) => {
    if (req.url === "/connect/token") return token(res);
    res.on("close", () => closed.push(req.url ?? ""));
    // Never answers.
  };
  const client = createClient({
    baseUrl: base,
    clientId: "a",
    clientSecret: "b",
    timeoutMs: 1_000,
    retry: false,
  });
  // The token first, so the attempt timeout is the hanging call's alone (a loaded machine can be slow to connect).
  await client.getAccessToken();
  const { error } = await client.shop.listVenues();
  expect(error).toBeInstanceOf(TimeoutError);
  expect(error).toMatchObject({ kind: "timeout", scope: "attempt", method: "GET" });
  await expect.poll(() => closed, { timeout: 5_000 }).toEqual(["/shop/v1/discovery/venues"]);
});

it("re-sends the same body and key on retry after a 503", async () => {
  const seen: Array<{ body: string; key: string | undefined }> = [];
  handler = (req, body, res) => {
    if (req.url === "/connect/token") return token(res);
    seen.push({ body, key: req.headers["idempotency-key"] as string | undefined });
    if (seen.length === 1) {
      res.writeHead(503, { "content-type": "application/problem+json", "retry-after": "0" });
      res.end(
        JSON.stringify({
          type: "https://docs.entrada.dev/problems/service-unavailable",
          title: "x",
          status: 503,
        }),
      );
      return;
    }
    res.writeHead(201, { "content-type": "application/json", "x-log-id": "log_1" });
    res.end(JSON.stringify({ id: "crt_1" }));
  };
  const client = createClient({ baseUrl: base, clientId: "a", clientSecret: "b" });
  const { data, meta } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
  expect(data).toEqual({ id: "crt_1" });
  expect(meta.attempts).toBe(2);
  expect(seen).toHaveLength(2);
  expect(seen[1]).toEqual(seen[0]);
  expect(seen[0]?.body).toBe('{"currency":"CHF"}');
});
