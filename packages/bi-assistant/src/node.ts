import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type BiAssistant, type BiAssistantOptions, createBiAssistant } from "./server.ts";

/** Largest request body read from a socket (one more byte than MCP takes, so it can answer 413). */
const MAX_BODY = 256 * 1024 + 1;

/**
 * Answers one `node:http` request whose body was already read, when the assistant serves its path; resolves
 * `false` (having written nothing) otherwise, so a host server (the mock's CLI) answers it itself.
 * @example if (!(await answerNode(assistant, req, res, body))) serveTheRest(req, res, body);
 */
export async function answerNode(
  assistant: BiAssistant,
  req: IncomingMessage,
  res: ServerResponse,
  body: Uint8Array | null,
): Promise<boolean> {
  const path = (req.url ?? "/").split("?")[0] as string;
  if (!assistant.serves(path)) return false;
  const method = req.method ?? "GET";
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers))
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/"}`, {
    method,
    headers,
    body: method === "GET" || method === "HEAD" || body === null ? null : (body as BodyInit),
  });
  let response: Response | null;
  try {
    response = await assistant.fetch(request);
  } catch (error) {
    console.error(error);
    response = new Response(JSON.stringify({ type: "about:blank", title: "Internal error", status: 500 }), {
      status: 500,
      headers: { "content-type": "application/problem+json" },
    });
  }
  if (!response) return false;
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
  return true;
}

export interface RunningBiAssistant {
  url: string;
  port: number;
  server: Server;
  assistant: BiAssistant;
  close(): Promise<void>;
}

/**
 * Runs the assistant on its own port against the BI feed of `apiUrl`.
 * @example const running = await startBiAssistant({ apiUrl: "http://127.0.0.1:4010", port: 0 });
 */
export async function startBiAssistant(
  options: BiAssistantOptions & { port?: number; host?: string },
): Promise<RunningBiAssistant> {
  const { port = 4320, host = "127.0.0.1", ...rest } = options;
  const assistant = createBiAssistant(rest);
  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("error", () => req.socket.destroy());
    req.on("end", () => {
      answerNode(assistant, req, res, chunks.length ? Buffer.concat(chunks) : null)
        .then((answered) => {
          if (answered) return;
          res.writeHead(404, { "content-type": "application/problem+json" });
          res.end(
            JSON.stringify({
              type: "about:blank",
              title: "Not found",
              status: 404,
              detail: `The BI assistant answers at ${assistant.path}.`,
            }),
          );
        })
        .catch((error: unknown) => {
          console.error(error);
          res.destroy();
        });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    server,
    assistant,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
