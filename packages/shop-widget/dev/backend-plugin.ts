/**
 * The dev page's "host backend", as a Vite plugin: it starts the Entrada mock as a real HTTP server and
 * serves the one endpoint a host site needs, `POST /backend/shop-session`, which creates a shop session
 * token server-to-server with the SDK and client credentials. The browser only ever sees the session token.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Plugin, ViteDevServer } from "vite";

type SdkModule = typeof import("@entrada/sdk");
type MockNodeModule = typeof import("@entrada/mock-server/node");

export interface DevBackendOptions {
  /** Port of the mock API (default `ENTRADA_MOCK_PORT` or 4010; falls back to a free port when taken). */
  mockPort?: number;
  /** The demo client the backend authenticates with (the mock's demo shop client). */
  clientId?: string;
  clientSecret?: string;
}

interface Visitor {
  token: string;
  expiresAt: number;
  /** The visitor's shop session: renewed (not replaced) when the token runs out, so the cart stays. */
  sessionId: string;
}

/** The request body as text (at most 10 000 characters: a token request is tiny). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
      if (body.length > 10_000) req.destroy();
    });
    req.on("end", () => resolve(body));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

export function entradaDevBackend(options: DevBackendOptions = {}): Plugin {
  let apiUrl = "";
  let close: (() => Promise<void>) | undefined;
  return {
    name: "entrada-dev-backend",
    apply: "serve",
    async configureServer(server: ViteDevServer) {
      // Load the workspace sources through Vite (TypeScript, `source` export condition).
      const { startMockServer } = (await server.ssrLoadModule("@entrada/mock-server/node")) as MockNodeModule;
      const { createClient } = (await server.ssrLoadModule("@entrada/sdk")) as SdkModule;
      const wanted = options.mockPort ?? Number(process.env.ENTRADA_MOCK_PORT ?? 4010);
      let mock: Awaited<ReturnType<typeof startMockServer>>;
      try {
        mock = await startMockServer({ port: wanted, host: "127.0.0.1" });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE") throw error;
        mock = await startMockServer({ port: 0, host: "127.0.0.1" });
        server.config.logger.warn(`  Port ${wanted} is taken; the mock API runs on ${mock.url} instead.`);
      }
      apiUrl = mock.url;
      close = () => mock.close();
      server.httpServer?.once("close", () => void close?.());

      const backend = createClient({
        baseUrl: apiUrl,
        clientId: options.clientId ?? "entrada-shop",
        clientSecret: options.clientSecret ?? "shop-secret",
        scope: "Shop",
      });
      // One shop session per visitor (cookie), so a reload or a return from the payment page sees its cart;
      // an expired or rejected token is renewed under the same shop session (`sessionId`), keeping the cart.
      const visitors = new Map<string, Visitor>();

      server.middlewares.use("/backend/shop-session", async (req, res) => {
        if (req.method !== "POST") return send(res, 405, { error: "POST only" }, { allow: "POST" });
        try {
          const body = JSON.parse((await readBody(req)) || "{}") as {
            rejectedToken?: string;
            sessionId?: string;
          };
          const cookie = /(?:^|;\s*)entrada_visitor=([\w-]+)/.exec(req.headers.cookie ?? "")?.[1];
          const visitorId = cookie ?? randomUUID();
          const known = visitors.get(visitorId);
          const fresh =
            known === undefined ||
            known.token === body.rejectedToken ||
            known.expiresAt - Date.now() < 60_000;
          if (fresh) {
            const origin = req.headers.origin ?? `http://${req.headers.host}`;
            // Renew only the session stored for this visitor: the widget's `sessionId` is a hint, not proof
            // (session ids are not secrets), so one naming another session starts a new one instead.
            const renew =
              known !== undefined && (body.sessionId === undefined || body.sessionId === known.sessionId);
            // `renew` falls back to a new session when the API no longer knows this one (404, e.g. the mock
            // restarted).
            const origins = { allowedOrigins: [origin] };
            const { data } =
              renew && known
                ? await backend.sessions.renew.orThrow(known.sessionId, origins)
                : await backend.sessions.create.orThrow(origins);
            visitors.set(visitorId, {
              token: data.sessionToken,
              expiresAt: Date.parse(data.expiresAt),
              sessionId: data.sessionId,
            });
          }
          const visitor = visitors.get(visitorId);
          send(
            res,
            200,
            { sessionToken: visitor?.token, sessionId: visitor?.sessionId },
            { "set-cookie": `entrada_visitor=${visitorId}; Path=/; HttpOnly; SameSite=Lax` },
          );
        } catch (error) {
          server.config.logger.error(`  shop-session: ${(error as Error).message}`);
          send(res, 502, { error: "Could not create a shop session" });
        }
      });

      // The built script-tag files (run `pnpm --filter @entrada/shop-widget build` first): the classic script
      // for `script.html` under a fixed name, and the ES module build with its chunks for `?build=script`.
      server.middlewares.use("/dist/script/", async (req, res) => {
        const { readdir, readFile } = await import("node:fs/promises");
        const dir = new URL("../dist/script/", import.meta.url);
        const wanted = (req.url ?? "").split("?")[0]?.replace(/^\//, "") ?? "";
        const files = await readdir(dir).catch(() => [] as string[]);
        const name =
          wanted === "shop-widget.iife.js"
            ? files.find((f) => f.endsWith(".iife.js"))
            : wanted === "shop-widget.js"
              ? files.find((f) => /^shop-widget\.\d+\.\d+\.\d+\.js$/.test(f))
              : /^(chunks\/)?[\w.-]+\.(js|css)$/.test(wanted)
                ? wanted
                : undefined;
        const body =
          name === undefined ? undefined : await readFile(new URL(name, dir)).catch(() => undefined);
        if (body === undefined) {
          res.writeHead(404, { "content-type": "text/plain" });
          res.end("Build the widget first: pnpm --filter @entrada/shop-widget build");
          return;
        }
        const type = name?.endsWith(".css") ? "text/css" : "text/javascript";
        res.writeHead(200, { "content-type": type, "cache-control": "no-store" });
        res.end(body);
      });

      const print = server.printUrls.bind(server);
      server.printUrls = () => {
        print();
        const info = server.config.logger.info;
        info(`  ➜  Mock API:  ${apiUrl}  (developer controls: ${apiUrl}/__mock)`);
        info("  ➜  Test cards: 4242 4242 4242 4242 (accepted), 4000 0000 0000 0002 (declined)");
      };
    },
    transformIndexHtml: {
      order: "pre",
      handler: () => [
        { tag: "meta", attrs: { name: "entrada-api", content: apiUrl }, injectTo: "head-prepend" },
      ],
    },
    async buildEnd() {
      await close?.();
    },
  };
}
