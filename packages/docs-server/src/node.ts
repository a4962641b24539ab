import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import apiDocument from "@entrada/openapi/openapi.json" with { type: "json" };
import type { GuideName } from "./content.ts";
import { loadGuides } from "./guides.ts";
import { createDocsServer, type DocsServer, type DocsServerOptions } from "./server.ts";

const require = createRequire(import.meta.url);

/** The guides' Markdown read from the installed `@entrada/openapi` package. */
export function loadGuidesFromPackages(): Partial<Record<GuideName, string>> {
  return loadGuides((pkg, path) => {
    try {
      return readFileSync(join(dirname(require.resolve(`${pkg}/package.json`)), path), "utf8");
    } catch {
      return null;
    }
  });
}

/** Where `pnpm --filter @entrada/docs-server build` writes the HTML reference (this package's `dist/`). */
export const REFERENCE_HTML = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", "reference.html");

/** Where the build copies the reference's renderer (Scalar's standalone bundle). */
export const REFERENCE_SCRIPT = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "dist",
  "reference-scalar.js",
);

/** The built HTML reference, or `null` when the package has not been built. */
export function readReferenceHtml(file = REFERENCE_HTML): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

/** Options on Node: the contract defaults to `@entrada/openapi/openapi.json`, guides and reference to the files. */
export type NodeDocsServerOptions = Partial<DocsServerOptions>;

/**
 * The documentation server on Node with the guides and the HTML reference read from disk.
 * @example const docs = createNodeDocsServer({ document }); const res = await docs.fetch(new Request(url));
 */
export function createNodeDocsServer(options: NodeDocsServerOptions = {}): DocsServer {
  return createDocsServer({
    document: apiDocument,
    guides: loadGuidesFromPackages(),
    referenceHtml: () => readReferenceHtml(),
    referenceScript: () => readReferenceHtml(REFERENCE_SCRIPT),
    ...options,
  });
}

/** Largest request body read from a socket (an MCP message is at most 1 MiB; one more byte lets MCP answer 413). */
const MAX_BODY = 1024 * 1024 + 1;

/**
 * A `node:http` request listener serving the documentation server (404 problem for paths it does not serve).
 * @example createServer(nodeListener(docs)).listen(4300)
 */
export function nodeListener(docs: DocsServer) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
    });
    req.on("error", () => req.socket.destroy());
    req.on("end", () => {
      answerNode(docs, req, res, Buffer.concat(chunks))
        .then((answered) => (answered ? undefined : writeResponse(res, notFound(req.url ?? "/"))))
        // A response that cannot be written (a header value Node refuses, a body that breaks off) ends this
        // connection, not the process.
        .catch((error: unknown) => {
          console.error(error);
          res.destroy();
        });
    });
  };
}

/**
 * Answers one `node:http` request whose body was already read, when the documentation server serves its path;
 * resolves `false` (having written nothing) when it does not, so a host server (the mock's CLI mounts the docs
 * this way) answers it itself. A failure of the docs server is a logged 500 problem.
 * @example if (!(await answerNode(docs, req, res, body))) serveTheRest(req, res, body);
 */
export async function answerNode(
  docs: DocsServer,
  req: IncomingMessage,
  res: ServerResponse,
  body: Uint8Array | null,
): Promise<boolean> {
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
    response = await docs.fetch(request, req.socket.remoteAddress);
  } catch (error) {
    console.error(error);
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/problem+json" });
    res.end(
      JSON.stringify({
        type: "https://docs.entrada.dev/problems/internal-error",
        title: "Internal error",
        status: 500,
      }),
    );
    return true;
  }
  if (!response) return false;
  await writeResponse(res, response);
  return true;
}

async function writeResponse(res: ServerResponse, response: Response): Promise<void> {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(response.body ? Buffer.from(await response.arrayBuffer()) : undefined);
}

function notFound(path: string): Response {
  return new Response(
    JSON.stringify({
      type: "https://docs.entrada.dev/problems/not-found",
      title: "Not found",
      status: 404,
      detail: `There is no page ${path}. See /reference or /ai/index.md.`,
      instance: path,
    }),
    { status: 404, headers: { "content-type": "application/problem+json" } },
  );
}

export interface RunningDocsServer {
  url: string;
  port: number;
  server: Server;
  docs: DocsServer;
  close(): Promise<void>;
}

/**
 * Runs the documentation server on its own port (spec §4.6: a separate service from the API).
 * @example const running = await startDocsServer({ document, port: 0 }); await running.close();
 */
export async function startDocsServer(
  options: NodeDocsServerOptions & { port?: number; host?: string } = {},
): Promise<RunningDocsServer> {
  const { port = 4300, host = "127.0.0.1", ...rest } = options;
  const docs = createNodeDocsServer(rest);
  const server = createServer({ keepAliveTimeout: 5000 }, nodeListener(docs));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    server,
    docs,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
