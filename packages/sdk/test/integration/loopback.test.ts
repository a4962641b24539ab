/**
 * Against a real HTTP server on loopback with the runtime's own fetch: timeouts really cancel the request (the
 * server sees the connection go away), and retried bodies arrive intact.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
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
  const arrived: string[] = [];
  const closed: string[] = [];
  handler = (req, _body, res) => {
    if (req.url === "/connect/token") return token(res);
    arrived.push(req.url ?? "");
    res.on("close", () => closed.push(req.url ?? ""));
    // Never answers.
  };
  // The client's clock is faked (the sockets are real): the timeout fires when the test moves the clock, after the
  // request has reached the server, so a slow machine cannot time it out early and no test time is spent waiting.
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
  try {
    const client = createClient({
      baseUrl: base,
      clientId: "a",
      clientSecret: "b",
      timeoutMs: 1_000,
      retry: false,
    });
    await client.getAccessToken();
    const call = client.shop.listVenues();
    await expect.poll(() => arrived, { timeout: 5_000 }).toEqual(["/shop/v1/discovery/venues"]);
    vi.advanceTimersByTime(999);
    expect(closed).toEqual([]);
    vi.advanceTimersByTime(1);
    const { error } = await call;
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ kind: "timeout", scope: "attempt", method: "GET", timeoutMs: 1_000 });
    await expect.poll(() => closed, { timeout: 5_000 }).toEqual(["/shop/v1/discovery/venues"]);
  } finally {
    vi.useRealTimers();
  }
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
  // A 1 ms backoff base: the test checks what is re-sent, not how long the client waits.
  const client = createClient({ baseUrl: base, clientId: "a", clientSecret: "b", retry: { baseDelayMs: 1 } });
  const { data, meta } = await client.shop.createCart.orThrow({ body: { currency: "CHF" } });
  expect(data).toEqual({ id: "crt_1" });
  expect(meta.attempts).toBe(2);
  expect(seen).toHaveLength(2);
  expect(seen[1]).toEqual(seen[0]);
  expect(seen[0]?.body).toBe('{"currency":"CHF"}');
});
