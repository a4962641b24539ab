/**
 * Test upstreams that are the mock with a flaw: a relay that forwards every request to `target` and lets a test
 * change the request's headers and the answer on the way (a server that accepts any token, one that forgets
 * idempotency keys, one that answers 200 for an unknown key). Also the client-credentials token request the tests
 * share.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { read } from "../helpers.ts";

const HOP = ["host", "connection", "content-length", "transfer-encoding", "content-encoding"];

export interface Rewrites {
  /** Changes the forwarded request's headers (the path is the request's, with its query). */
  request?: (path: string, headers: Headers) => void;
  /** Changes the answer before it is relayed; the headers given are the forwarded request's. */
  response?: (path: string, answer: Response, headers: Headers) => Response | Promise<Response>;
  /** Headers added to every relayed answer. */
  add?: Record<string, string>;
}

export async function startRewritingUpstream(
  target: string,
  rewrites: Rewrites,
): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      const path = req.url ?? "/";
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && !HOP.includes(name)) headers.set(name, value);
      rewrites.request?.(path, headers);
      const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
      let answer = await fetch(`${target}${path}`, { method: req.method, headers, body });
      if (rewrites.response) answer = await rewrites.response(path, answer, headers);
      const out: Record<string, string> = { ...rewrites.add };
      answer.headers.forEach((value, name) => {
        if (!HOP.includes(name)) out[name] = value;
      });
      res.writeHead(answer.status, out);
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  return listen(server);
}

/** Listens on a free loopback port; `close` also ends open connections (a hanging test server). */
export async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An access token of the client (Basic credentials), or the failed answer as an error. */
export async function clientToken(
  base: string,
  client: { id: string; secret: string } = { id: "entrada-demo", secret: "demo-secret" },
  scope = "Shop",
  headers: Record<string, string> = {},
): Promise<string> {
  return (await clientGrant(base, client, scope, headers)).access_token;
}

/** The whole token answer (`access_token`, `expires_in`); `headers` e.g. the mock's `X-Mock-Session`. */
export async function clientGrant(
  base: string,
  client: { id: string; secret: string } = { id: "entrada-demo", secret: "demo-secret" },
  scope = "Shop",
  headers: Record<string, string> = {},
): Promise<{ access_token: string; expires_in: number }> {
  const response = await fetch(`${base}/connect/token`, {
    method: "POST",
    headers: {
      ...headers,
      authorization: `Basic ${btoa(`${client.id}:${client.secret}`)}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
  });
  if (response.status !== 200) throw new Error(`token: ${response.status} ${await response.text()}`);
  return read.body(response, "createToken");
}
