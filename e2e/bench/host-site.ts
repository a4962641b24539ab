/**
 * A plain host site for the phone vitals bench, served the way a buyer gets it: the widget's script-tag build as
 * shipped (`dist/script`) from a compressing static server with a CDN's cache headers, a host page that loads it
 * with a `<script>` tag and calls `EntradaShop.mount(…)`, the host's one backend endpoint (`POST
 * /backend/shop-session`, a session token created server-to-server with the SDK) and the Entrada mock as the API on
 * its own origin (so the browser sends CORS preflights, as it does to the real API).
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { startMockServer } from "@entrada/mock-server/node";
import { createClient } from "@entrada/sdk";
import { readBody } from "../../packages/shop-widget/dev/backend-plugin.ts";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".html": "text/html; charset=utf-8",
};

/** The host page's text around the widget: the same with and without the shop. */
function page(title: string, widget: string) {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="icon" href="data:," />
    <style>
      body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1f2328; }
      header, main, footer { padding: 0 16px; }
      footer { border-top: 1px solid #d0d7de; margin-top: 24px; padding-block: 16px; }
      /* The shop's first screen reserved, as the widget's README asks (what follows does not jump). */
      #tickets { min-height: 40rem; }
    </style>
  </head>
  <body>
    <header><h1>Tickets</h1></header>
    <main>
      <p>Concerts, theatre and family shows this season. Choose an event to see its dates and prices.</p>
      <div id="tickets"></div>
    </main>
    <footer><p>Tonhalle Demo · Box office open Monday to Saturday, 10:00–18:00</p></footer>
${widget}
  </body>
</html>
`;
}

/** The embed as the widget's README shows it: the script tag, then mount with the host's token function. */
function shopPage(entry: string, apiUrl: string) {
  return page(
    "Tickets · with the shop",
    `    <script type="module" src="/widget/${entry}"></script>
    <script type="module">
      EntradaShop.mount("#tickets", {
        baseUrl: ${JSON.stringify(apiUrl)},
        locale: "en-GB",
        fetchSessionToken: async (request) => {
          const response = await fetch("/backend/shop-session", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(request),
          });
          if (!response.ok) throw new Error("shop session: HTTP " + response.status);
          return response.json();
        },
      });
    </script>`,
  );
}

interface Asset {
  type: string;
  cache: string;
  raw: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Compressed once, like a CDN's edge cache: brotli when the browser offers it, else gzip. */
function asset(body: Buffer | string, type: string, cache: string): Asset {
  const raw = Buffer.from(body);
  return {
    type,
    cache,
    raw,
    gzip: gzipSync(raw, { level: 9 }),
    br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
  };
}

function send(req: IncomingMessage, res: ServerResponse, file: Asset) {
  const accepted = String(req.headers["accept-encoding"] ?? "");
  const [encoding, body] = /\bbr\b/.test(accepted)
    ? ["br", file.br]
    : /\bgzip\b/.test(accepted)
      ? ["gzip", file.gzip]
      : [undefined, file.raw];
  res.writeHead(200, {
    "content-type": file.type,
    "cache-control": file.cache,
    vary: "Accept-Encoding",
    "content-length": body.length,
    ...(encoding ? { "content-encoding": encoding } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}

export interface HostSite {
  origin: string;
  apiUrl: string;
  /** Paths of the page with the shop and of the same page without it. */
  pages: { shop: string; bare: string };
  close(): Promise<void>;
}

/**
 * Serves `dist` (a script-tag build folder: `shop-widget.<version>.js` and `chunks/`) under `/widget/` on `port`
 * (0: a free one), the mock API on `apiPort`.
 */
export async function startHostSite(dist: string, port = 0, apiPort = 0): Promise<HostSite> {
  const mock = await startMockServer({ port: apiPort, host: "127.0.0.1", docs: false, biAssistant: false });
  const backend = createClient({
    baseUrl: mock.url,
    clientId: "entrada-shop",
    clientSecret: "shop-secret",
    scope: "Shop",
  });
  const { readdir } = await import("node:fs/promises");
  const entry = (await readdir(dist)).find((f) => /^shop-widget\.\d+\.\d+\.\d+\.js$/.test(f));
  if (entry === undefined) {
    throw new Error(`no shop-widget.<version>.js in ${dist}: run pnpm --filter @entrada/shop-widget build`);
  }
  const files = new Map<string, Asset>();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    try {
      if (path === "/backend/shop-session" && req.method === "POST") {
        // A new shop session per page load (each run is a new visitor); renewed under the same id after a 401.
        const request = JSON.parse((await readBody(req)) || "{}") as { sessionId?: string };
        const origins = { allowedOrigins: [`http://${req.headers.host}`] };
        const { data } = request.sessionId
          ? await backend.sessions.renew.orThrow(request.sessionId, origins)
          : await backend.sessions.create.orThrow(origins);
        res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
        res.end(JSON.stringify({ sessionToken: data.sessionToken, sessionId: data.sessionId }));
        return;
      }
      let file = files.get(path);
      if (file === undefined && path.startsWith("/widget/")) {
        const relative = normalize(path.slice("/widget/".length));
        const type = TYPES[extname(relative)];
        if (!relative.startsWith("..") && type !== undefined) {
          const body = await readFile(join(dist, relative)).catch(() => undefined);
          // Versioned and content-hashed names: cached for a year, like any CDN serves them.
          if (body) file = asset(body, type, "public, max-age=31536000, immutable");
        }
        if (file) files.set(path, file);
      }
      if (file === undefined) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("not found");
        return;
      }
      send(req, res, file);
    } catch (error) {
      res.writeHead(500, { "content-type": "text/plain" });
      res.end(String(error));
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", resolve);
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  files.set("/shop.html", asset(shopPage(entry, mock.url), TYPES[".html"] as string, "no-cache"));
  files.set("/bare.html", asset(page("Tickets", ""), TYPES[".html"] as string, "no-cache"));
  return {
    origin,
    apiUrl: mock.url,
    pages: { shop: "/shop.html", bare: "/bare.html" },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await mock.close();
    },
  };
}
