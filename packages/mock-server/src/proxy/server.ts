/**
 * `entrada-mock proxy --upstream <url>`: the contract proxy on a real port (node:http), over the stages of
 * pipeline.ts. `/__mock` is guarded by the admin token off loopback (see ../node/admin.ts); `close()` writes the
 * drift report to `report` when given.
 */
import { writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { ajvSchemaCompiler } from "../compiler/ajv.ts";
import { ContractChecker } from "../core/contract.ts";
import type { MockCore } from "../core/engine.ts";
import { createEntradaMock, type EntradaMockOptions } from "../index.ts";
import { checkAdmin, generateAdminToken, isLoopback, maskSecrets } from "../node/admin.ts";
import { listen } from "../node/index.ts";
import { DriftStore } from "./drift.ts";
import { type ProxyReply, type ProxyServices, proxyRequest, proxyStages } from "./pipeline.ts";
import { Recorder, type RecorderLimits } from "./recorder.ts";
import { ReplayTracker } from "./replay.ts";
import { Upstream } from "./upstream.ts";
import { UpstreamCredentials } from "./upstream-credentials.ts";

export interface ProxyServerOptions extends EntradaMockOptions {
  upstream: string;
  port?: number;
  host?: string;
  /** Answer locally what the upstream cannot (unreachable, 501), marked `X-Entrada-Source: local-fallback`. */
  fallback?: boolean;
  /** Save sanitized exchanges per operation here (see recorder.ts). */
  record?: string;
  recordLimits?: RecorderLimits;
  /** Write the drift report (JSON) here on close. */
  report?: string;
  /** Required for `/__mock` (generated off loopback when not given; `null` turns the guard off on loopback). */
  adminToken?: string;
  /** Distinct differences kept (default 500). */
  maxDriftEntries?: number;
  /** Bodies up to this size are checked (default 1 MiB); longer ones are streamed through. */
  maxCheckedBytes?: number;
  /** Largest request body forwarded (default 16 MiB; larger: 413). */
  maxRequestBytes?: number;
  log?: (line: string) => void;
}

export interface ProxyServer {
  url: string;
  port: number;
  upstream: string;
  drift: DriftStore;
  core: MockCore;
  /** The admin token `/__mock` needs, or null when it is open (loopback without `adminToken`). */
  adminToken: string | null;
  server: Server;
  close(): Promise<void>;
}

function problem(status: number, slug: string, title: string, detail: string): ProxyReply {
  return {
    status,
    headers: { "content-type": "application/problem+json", "cache-control": "no-store" },
    body: JSON.stringify({ type: `https://docs.entrada.dev/problems/${slug}`, title, status, detail }),
  };
}

export async function startProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const {
    upstream: upstreamUrl,
    port = 4020,
    host = "127.0.0.1",
    fallback = false,
    record,
    recordLimits,
    report,
    adminToken: givenToken,
    maxDriftEntries = 500,
    maxCheckedBytes = 1024 * 1024,
    maxRequestBytes = 16 * 1024 * 1024,
    log = () => {},
    ...coreOptions
  } = options;
  const upstream = new Upstream(upstreamUrl);
  const core = createEntradaMock({ schemaCompiler: ajvSchemaCompiler, ...coreOptions });
  const adminToken = givenToken ?? (isLoopback(host) ? null : generateAdminToken());
  const services: ProxyServices = {
    upstream,
    core,
    // The local mock's compiler and compiled operations: one of each per proxy.
    checker: new ContractChecker(core.document, core.validator.schemaCompiler, core.operations),
    replay: new ReplayTracker(),
    drift: new DriftStore(upstreamUrl, maxDriftEntries),
    recorder: record ? new Recorder(record, recordLimits) : null,
    fallback,
    credentials: fallback ? new UpstreamCredentials() : null,
    maxCheckedBytes,
    log,
  };
  const stages = proxyStages(services);
  const secrets = core.options.clients.flatMap((c) => c.secrets);

  const handle = async (req: IncomingMessage, res: ServerResponse, body: Uint8Array | null) => {
    const path = req.url ?? "/";
    const guard = adminToken ? checkAdmin(adminToken, path, req.headers) : null;
    let reply: ProxyReply =
      guard ??
      (await proxyRequest(stages, { method: req.method ?? "GET", path, headers: req.headers, body }));
    if (adminToken && guard === null && path.startsWith("/__mock"))
      reply = maskSecrets(reply as Parameters<typeof maskSecrets>[0], secrets) as ProxyReply;
    res.writeHead(reply.status, reply.headers);
    if (reply.rest) {
      if (reply.body) res.write(reply.body);
      reply.rest.pipe(res);
      reply.rest.on("error", () => res.destroy());
    } else res.end(reply.body ?? undefined);
  };

  const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxRequestBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      const body = chunks.length > 0 ? new Uint8Array(Buffer.concat(chunks)) : null;
      const work = tooLarge
        ? Promise.resolve().then(() => {
            const reply = problem(
              413,
              "payload-too-large",
              "Payload too large",
              `The proxy forwards request bodies up to ${maxRequestBytes} bytes.`,
            );
            res.writeHead(reply.status, reply.headers);
            res.end(reply.body);
          })
        : handle(req, res, body);
      work.catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) {
          const reply = problem(
            500,
            "internal-error",
            "Internal error",
            "The contract proxy failed; see its log.",
          );
          res.writeHead(reply.status, reply.headers);
          res.end(reply.body);
        } else res.destroy();
      });
    });
    req.on("error", () => req.socket.destroy());
  });
  const bound = await listen(server, port, host);
  let closed = false;
  return {
    ...bound,
    upstream: upstreamUrl,
    drift: services.drift,
    core,
    adminToken,
    server,
    async close() {
      if (closed) return;
      closed = true;
      if (report) writeFileSync(report, `${JSON.stringify(services.drift.report(), null, 2)}\n`);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await upstream.close();
    },
  };
}
