/**
 * The standalone transport: `node:http` straight into the engine — no Fetch Request/Response objects per
 * request, which is what makes it several times faster than running the same core behind msw.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Agent, fetch as undiciFetch } from "undici";
import { ajvSchemaCompiler } from "../compiler/ajv.ts";
import type { MockCore } from "../core/engine.ts";
import { logId } from "../core/ids.ts";
import { keptBytes } from "../core/json-text.ts";
import type { MockRequest, MockResponse } from "../core/types.ts";
import { createEntradaMock, type EntradaMockOptions } from "../index.ts";
import { startDeliveryWorker } from "../sections/webhooks/index.ts";
import { adminGuard, generateAdminToken, isLoopback } from "./admin.ts";
import { BI_ASSISTANT_PATH, BI_ASSISTANT_PATHS, lazyBiAssistant } from "./bi-assistant.ts";
import { loadCultures } from "./cultures.ts";
import type { NodeMountedServer } from "./mounted.ts";

export interface MockServerOptions extends EntradaMockOptions {
  /** Port to listen on; 0 picks a free one (default 4010). */
  port?: number;
  /** Interface to bind (default 127.0.0.1: loopback only). */
  host?: string;
  /** An engine to serve instead of a new one. */
  core?: MockCore;
  /** Deliver emitted webhook events to registered endpoints (default true). */
  webhooks?: boolean;
  /**
   * Also serve the documentation server (`@entrada/docs-server`, an optional peer) on the same port: the HTML
   * reference at `/reference` (`/` and `/docs` lead a browser there), MCP at `/api/mcp`, the server card and the
   * Markdown mirrors under `/ai/` (default true; loaded on first use, skipped when the package is not installed).
   */
  docs?: boolean;
  /**
   * The token the developer controls (`/__mock`) require (see admin.ts). Default: none on a loopback `host`, a
   * generated one on any other interface (`MockServer.adminToken`).
   */
  adminToken?: string;
  /**
   * Also serve the BI assistant MCP server (`@entrada/bi-assistant`, an optional peer) at `/bi/mcp`, with its
   * protected resource metadata and this server's authorization server metadata under `/.well-known/` (default
   * true; loaded on first use, skipped when the package is not installed). See `bi-assistant.ts`.
   */
  biAssistant?: boolean;
  /**
   * A folder of extra cultures, one sub-folder per tag with `culture.json` and `messages.json` (see
   * `readCultureFolder`): the mock negotiates and answers in them too. Process-wide, like the built-in ones.
   */
  cultures?: string;
}

export interface MockServer {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  core: MockCore;
  server: Server;
  /** What `/__mock` requires, or null when it is open (loopback without `adminToken`). */
  adminToken: string | null;
  /** Stops accepting requests, ends open connections and stops webhook delivery. */
  close(): Promise<void>;
}

/**
 * The lower-cased names of headers sent more than once (undefined: none), from the raw name/value list: only the
 * socket can tell. Which of them may come once is the pipeline's to judge (`core/target.ts`).
 */
function repeatedHeaders(raw: string[]): string[] | undefined {
  let repeated: string[] | undefined;
  for (let i = 2; i < raw.length; i += 2) {
    const name = raw[i] as string;
    for (let j = 0; j < i; j += 2) {
      const earlier = raw[j] as string;
      if (earlier.length !== name.length || earlier.toLowerCase() !== name.toLowerCase()) continue;
      const lower = name.toLowerCase();
      repeated ??= [];
      if (!repeated.includes(lower)) repeated.push(lower);
      break;
    }
  }
  return repeated;
}

/** Paths of the documentation server (`@entrada/docs-server`): MCP, server card, /ai mirrors, HTML reference, `/`. */
const DOCS_PATHS =
  /^\/(?:api\/mcp|\.well-known\/mcp\/server-card\.json|ai\/[^?#]*|reference\/?|reference\/(?:openapi\.json|scalar\.js|start\.js)|docs\/?|)(?:[?#]|$)/;

/**
 * The documentation server (`@entrada/docs-server`, an optional peer), created on its first request (it pulls in
 * the MCP SDK and builds a search index); `null` when the package is not installed.
 */
function lazyDocs(
  core: MockCore,
  assistant: (() => Promise<unknown>) | null,
  tryIt: boolean,
): () => Promise<NodeMountedServer | null> {
  let docs: Promise<NodeMountedServer | null> | null = null;
  return () => {
    docs ??= Promise.all([import("@entrada/docs-server"), assistant?.() ?? null]).then(
      ([{ createNodeDocsServer, answerNode }, mounted]) => {
        // The root index links the BI assistant, and about_bi_assistant_mcp names it, when it is mounted.
        const bi: { biAssistant?: string } = mounted ? { biAssistant: BI_ASSISTANT_PATH } : {};
        const server = createNodeDocsServer({
          document: core.document,
          links: { mockControls: "/__mock", ...(mounted ? { biAssistant: BI_ASSISTANT_PATH } : {}) },
          ...bi,
          // Off loopback the developer controls are guarded and secrets are not shown: no pre-filled client either.
          ...(tryIt ? { tryIt: tryItClient(core) } : {}),
        });
        return {
          // The path as `answerNode` reads it: the WHATWG pathname (a dot segment resolved is not its path).
          serves: (request) => server.serves(pathnameOf(request.url)),
          answer: (req, res, body) => answerNode(server, req, res, body),
        };
      },
      () => null,
    );
    return docs;
  };
}

/** The WHATWG pathname of a URL; "" (no server's path) when it does not parse. */
function pathnameOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return "";
  }
}

/**
 * The client the HTML reference pre-fills so "Send" works against this mock: the first configured client with
 * the most scopes (the demo client `entrada-demo`, `Shop` and `TERP`, unless `clients` says otherwise).
 */
function tryItClient(core: MockCore) {
  const [client] = [...core.options.clients].sort((a, b) => b.scopes.length - a.scopes.length);
  const secret = client?.secrets[0];
  return client && secret
    ? { clientId: client.clientId, clientSecret: secret, scopes: [...client.scopes] }
    : null;
}

/**
 * Serves a core over an existing node:http request (usable as middleware in your own server). The transport reads
 * the request off the socket and writes the answer; everything in between, its admin guard and mounted servers
 * included, is the engine's pipeline (`core/pipeline/index.ts`).
 */
export function nodeHandler(
  core: MockCore,
  fallbackHost: string,
  options: { docs?: boolean; biAssistant?: boolean; adminToken?: string | null } = {},
) {
  const limit = core.options.maxBodyBytes;
  const assistant = options.biAssistant === false ? null : lazyBiAssistant(core);
  const admin = options.adminToken ?? null;
  const docs = options.docs === false ? null : lazyDocs(core, assistant, admin === null);
  const secrets = core.options.clients.flatMap((c) => c.secrets);
  const respond = core.responder({
    admin: admin === null ? null : adminGuard(admin, secrets),
    mounts: [
      ...(assistant ? [{ paths: BI_ASSISTANT_PATHS, load: assistant }] : []),
      ...(docs ? [{ paths: DOCS_PATHS, load: docs }] : []),
    ],
  });
  const dispatch = (req: IncomingMessage, res: ServerResponse, body: Uint8Array | null) => {
    const dups = repeatedHeaders(req.rawHeaders);
    const request: MockRequest = {
      method: req.method ?? "GET",
      url: `http://${req.headers.host ?? fallbackHost}${req.url ?? "/"}`,
      headers: req.headers as Record<string, string>,
      body,
      ...(dups ? { duplicateHeaders: dups } : {}),
    };
    // The engine never rejects (a failure is its own 500 problem). What is left (a response that cannot be written)
    // ends the connection instead of the process.
    const broken = (error: unknown) => {
      console.error(error);
      req.socket.destroy();
    };
    const send = (response: MockResponse) => {
      // Every mount of this pipeline is this transport's own (`lazyDocs`, `lazyBiAssistant`).
      if (response.mounted) handOver(response.mounted as NodeMountedServer, req, res, body, broken);
      else writeAfterTurn(req, res, response, broken);
    };
    sendAnswer(respond(request), send, broken);
  };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) {
      req.resume();
      dispatch(req, res, null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      // Keep one byte past the limit so the engine can answer 413; drop the rest unread.
      if (size <= limit + 1) chunks.push(chunk);
      else if (chunks.length > 0 && size - chunk.length <= limit)
        chunks.push(chunk.subarray(0, limit + 1 - (size - chunk.length)));
    });
    req.on("end", () => {
      const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
      dispatch(
        req,
        res,
        body.length > 0 ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : null,
      );
    });
    req.on("error", () => req.socket.destroy());
  };
}

/**
 * Answers leave together at the end of the event loop's turn (its check phase), not one by one as the engine gives
 * them: a client asleep in its poll is then woken once per turn instead of once per answer, which was most of a cart
 * request's cost under load (the figures are in the README's benchmark section). `setImmediate` is taken when this
 * module loads, so a test suite that fakes timers later does not hold the answers back.
 */
const afterTurn = globalThis.setImmediate;
interface Answer {
  req: IncomingMessage;
  res: ServerResponse;
  response: MockResponse;
  broken: (error: unknown) => void;
}
const turnQueue: Answer[] = [];

function writeAfterTurn(
  req: IncomingMessage,
  res: ServerResponse,
  response: MockResponse,
  broken: (error: unknown) => void,
): void {
  if (turnQueue.length === 0) afterTurn(flushTurn);
  turnQueue.push({ req, res, response, broken });
}

function flushTurn(): void {
  // Taken out first, so an answer queued while these are written goes out with the next turn, not lost.
  const answers = turnQueue.splice(0);
  for (const { req, res, response, broken } of answers) {
    try {
      writeAnswer(req, res, response);
    } catch (error) {
      broken(error);
    }
  }
}

/**
 * One piece: with Content-Length set, node:http writes the head and the body in one write or writev (no chunked
 * encoding, no chunk header and trailer). A kept page goes as the bytes kept with it (not encoded again). A dropped
 * answer (a fault rule's) ends the connection, in its turn: answers queued before it on the connection go first.
 */
function writeAnswer(req: IncomingMessage, res: ServerResponse, response: MockResponse): void {
  if (response.drop) {
    req.socket.destroy();
    return;
  }
  const body = keptBytes(response) ?? response.body;
  const headers = response.headers;
  if (body !== null && body !== undefined)
    headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  res.writeHead(response.status, headers);
  res.end(body ?? undefined);
}

/**
 * A mounted server answers on the connection itself (it may stream). It said it serves the request, so it does:
 * a `false` would be its bug, and ends the connection like any answer that cannot be written.
 */
function handOver(
  server: NodeMountedServer,
  req: IncomingMessage,
  res: ServerResponse,
  body: Uint8Array | null,
  broken: (error: unknown) => void,
): void {
  server
    .answer(req, res, body)
    .then((answered) => {
      if (!answered) throw new Error(`The server mounted at ${req.url} did not answer a path it serves.`);
    })
    .catch(broken);
}

/** Hands the engine's answer to `send` (which queues it for the turn's end): now when at hand, else when it is. */
function sendAnswer(
  answer: MockResponse | Promise<MockResponse>,
  send: (response: MockResponse) => void,
  broken: (error: unknown) => void,
): void {
  if (answer instanceof Promise) {
    answer.then(send).catch(broken);
    return;
  }
  try {
    send(answer);
  } catch (error) {
    broken(error);
  }
}

/**
 * Starts the mock on a real port.
 * @example const mock = await startMockServer({ port: 0 }); await fetch(`${mock.url}/__mock`); await mock.close();
 */
export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const {
    port = 4010,
    host = "127.0.0.1",
    core: given,
    webhooks = true,
    docs = true,
    adminToken: givenToken,
    biAssistant = true,
    cultures,
    ...coreOptions
  } = options;
  if (cultures !== undefined) loadCultures(cultures);
  const adminToken = givenToken ?? (isLoopback(host) ? null : generateAdminToken());
  // Node runs Ajv's compiler: response validation and custom documents work here (the browser build has neither).
  const core = given ?? createEntradaMock({ schemaCompiler: ajvSchemaCompiler, ...coreOptions });
  const server = createServer(
    { keepAliveTimeout: 5000 },
    nodeHandler(core, `${host}:${port}`, { docs, biAssistant, adminToken }),
  );
  server.on("clientError", (_error, socket) => {
    const id = logId(Date.now());
    if (socket.writable) {
      socket.end(
        `HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\nx-log-id: ${id}\r\nconnection: close\r\n\r\n{"type":"https://docs.entrada.dev/problems/malformed-request","title":"Malformed request","status":400,"detail":"The HTTP request could not be parsed.","logId":"${id}"}`,
      );
    } else socket.destroy();
  });
  const bound = await listen(server, port, host);
  const stopWebhooks = webhooks ? await startWebhookDelivery(core) : async () => {};
  return {
    ...bound,
    core,
    server,
    adminToken,
    async close() {
      await stopWebhooks();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/** Listens on `port` (0: a free one) and `host`; the base URL and port it got (an IPv6 host in brackets). */
export async function listen(
  server: Server,
  port: number,
  host: string,
): Promise<{ url: string; port: number }> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const displayHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return { url: `http://${displayHost}:${address.port}`, port: address.port };
}

/** How long a webhook receiver may take to accept the connection: an unreachable host fails fast. */
const CONNECT_TIMEOUT_MS = 2_000;

/**
 * Starts the webhooks section's delivery worker over every session, posting with undici (Node's own HTTP client)
 * through a dispatcher with a connect timeout and a few connections per receiver; stopping destroys it, so no
 * socket to a receiver that hangs outlives the server.
 */
async function startWebhookDelivery(core: MockCore): Promise<() => Promise<void>> {
  const dispatcher = new Agent({
    connect: { timeout: CONNECT_TIMEOUT_MS },
    connections: 4,
    headersTimeout: 15_000,
    bodyTimeout: 15_000,
  });
  const worker = startDeliveryWorker({
    targets: () => core.listSessions().map((s) => ({ world: s.world, clock: s.clock })),
    fetch: (url, init) => undiciFetch(url, { ...init, dispatcher }),
    onError: (error) => console.error("webhook delivery:", error),
  });
  return async () => {
    await worker.stop();
    await dispatcher.destroy().catch(() => {});
  };
}

export { loadCultures, readCultureFolder } from "./cultures.ts";
