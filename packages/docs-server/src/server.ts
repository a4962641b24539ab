import { ulid } from "ulid";
import { buildSnapshot, type DocsSnapshot, type GuideName, kebab } from "./content.ts";
import { endpointMarkdown, indexMarkdown, moduleMarkdown } from "./markdown.ts";
import { createMcpEndpoint, INSTRUCTIONS, PROTOCOL_VERSIONS, SERVER_INFO, toolList } from "./mcp.ts";
import { referenceDocument } from "./reference.ts";
import {
  REFERENCE_CSP,
  REFERENCE_SCRIPT_PATH,
  REFERENCE_START_PATH,
  referenceStartScript,
  type TryItClient,
} from "./reference-page.ts";
import { SearchIndex, searchDocs } from "./search.ts";

export interface DocsServerOptions {
  /** The API contract the documentation describes (`@entrada/openapi/openapi.json`). */
  document: unknown;
  /** Markdown of the guides by name. */
  guides: Partial<Record<GuideName, string>>;
  /** Public URL of the documentation server for links; default: the request's origin. */
  docsUrl?: string;
  /** Requests per window per client address; `false` disables limiting. Default 600 per 60 s. */
  rateLimit?: { limit: number; windowSeconds: number } | false;
  /** The HTML API reference's page (built by `pnpm --filter @entrada/docs-server build`); `null` when not built. */
  referenceHtml?: () => string | null;
  /** The reference's renderer (Scalar's standalone bundle, copied by the build); `null` when not built. */
  referenceScript?: () => string | null;
  /**
   * A client whose credentials the HTML reference pre-fills (and fetches a token with) so a developer can send
   * requests from it: only where the docs server is mounted in the API it documents (the mock CLI passes its
   * demo client). Without it the reference renders the document's servers and no credentials.
   */
  tryIt?: TryItClient | null;
  /** Further addresses listed at `/` (e.g. the mock's developer controls: `{ mockControls: "/__mock" }`). */
  links?: Record<string, string>;
  /** The BI assistant served alongside (a path on this server or a URL): `about_bi_assistant_mcp` names it. */
  biAssistant?: string;
  /** Clock (default Date.now). */
  now?: () => number;
}

export interface DocsServer {
  /** Answer one HTTP request, or `null` for a path this server does not serve. */
  fetch(request: Request, clientAddress?: string): Promise<Response | null>;
  /** Whether `pathname` is one of this server's paths (cheap; lets a host route without building a Request). */
  serves(pathname: string): boolean;
  readonly snapshot: DocsSnapshot;
}

/** Paths of the server: MCP, the server card, the Markdown mirrors, the HTML reference and the root index. */
const PATHS =
  /^\/(?:api\/mcp|\.well-known\/mcp\/server-card\.json|ai\/.*|reference\/?|reference\/(?:openapi\.json|scalar\.js|start\.js)|docs\/?|)$/;
/** Every text is written in English; the documentation has no other language (see DECISIONS.md). */
const LANGUAGE = "en-GB";
const MAX_CLIENTS = 10_000;

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

/** gzip of a text with the web-standard CompressionStream (Node ≥ 18, browsers, workers). */
async function gzip(text: string): Promise<ArrayBuffer> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(stream).arrayBuffer();
}

function accepts(accept: string | null, types: string[]): boolean {
  if (!accept) return true;
  return accept.split(",").some((part) => {
    const [type = "", ...params] = part.trim().split(";");
    const zero = params.some((p) => /^\s*q=0(\.0*)?\s*$/i.test(p));
    return !zero && types.includes(type.trim().toLowerCase());
  });
}

/**
 * The documentation server (spec §4.6): MCP over Streamable HTTP at `/api/mcp`, the server card, Markdown mirrors
 * under `/ai`, and the HTML API reference with the guides at `/reference` — all from one snapshot of the contract
 * and the guides, so they always agree. Web-standard `Request` in, `Response` out; no auth, no state per client
 * beyond a bounded rate-limit window.
 * @example const docs = createDocsServer({ document, guides }); const res = await docs.fetch(request);
 */
export function createDocsServer(options: DocsServerOptions): DocsServer {
  const snapshot = buildSnapshot(options.document, options.guides);
  const index = new SearchIndex(searchDocs(snapshot));
  const assistant = options.biAssistant;
  const mcp = createMcpEndpoint((docsUrl) => ({
    snapshot,
    index,
    docsUrl,
    biAssistantUrl:
      assistant === undefined ? null : assistant.startsWith("/") ? `${docsUrl}${assistant}` : assistant,
  }));
  const now = options.now ?? Date.now;
  const limit = options.rateLimit === undefined ? { limit: 600, windowSeconds: 60 } : options.rateLimit;
  const windows = new Map<string, { start: number; count: number }>();
  let reference: string | null | undefined;
  let referenceScript: string | null | undefined;
  let referenceJson: string | undefined;
  let startScript: string | undefined;
  let gzippedScript: Promise<ArrayBuffer> | undefined;
  // Entity tags of the large static bodies (the renderer is megabytes), computed once each.
  const etags = new Map<string, string>();
  const etagOf = (key: string, body: string) => {
    let tag = etags.get(key);
    if (tag === undefined) {
      tag = `"${hash(body)}"`;
      etags.set(key, tag);
    }
    return tag;
  };

  function rate(address: string): { headers: Record<string, string>; retryAfter: number | null } {
    if (!limit) return { headers: {}, retryAfter: null };
    const t = now();
    let w = windows.get(address);
    if (!w || t - w.start >= limit.windowSeconds * 1000) {
      w = { start: t, count: 0 };
      windows.delete(address);
      // Bounded: the oldest client's window goes first when the table is full.
      if (windows.size >= MAX_CLIENTS) windows.delete(windows.keys().next().value as string);
      windows.set(address, w);
    }
    w.count++;
    const reset = Math.max(0, Math.ceil((w.start + limit.windowSeconds * 1000 - t) / 1000));
    const headers = {
      "ratelimit-limit": String(limit.limit),
      "ratelimit-remaining": String(Math.max(0, limit.limit - w.count)),
      "ratelimit-reset": String(reset),
    };
    return { headers, retryAfter: w.count > limit.limit ? Math.max(1, reset) : null };
  }

  function card(docsUrl: string): object {
    return {
      $schema: "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json",
      version: "1.0",
      protocolVersion: PROTOCOL_VERSIONS[0],
      supportedProtocolVersions: [...PROTOCOL_VERSIONS],
      serverInfo: SERVER_INFO,
      description: INSTRUCTIONS,
      documentationUrl: `${docsUrl}/reference`,
      transport: { type: "streamable-http", endpoint: "/api/mcp", stateless: true },
      capabilities: { tools: { listChanged: false } },
      authentication: { required: false },
      tools: toolList(),
    };
  }

  function page(name: string, docsUrl: string): string | null {
    if (name === "index") return indexMarkdown(snapshot, docsUrl);
    if (name.startsWith("endpoint-")) {
      const endpoint = snapshot.endpoints.find((e) => `endpoint-${e.operationId}` === name);
      return endpoint ? `${endpointMarkdown(endpoint, 1)}\n` : null;
    }
    if (name.startsWith("guide-"))
      return snapshot.guides.find((g) => `guide-${g.name}` === name)?.markdown.concat("\n") ?? null;
    const module = snapshot.modules.find((m) => `module-${kebab(m.name)}` === name);
    return module ? moduleMarkdown(module, docsUrl) : null;
  }

  return {
    snapshot,
    serves: (pathname) => PATHS.test(pathname),
    async fetch(request, clientAddress = "local") {
      const url = new URL(request.url);
      const path = url.pathname;
      if (!PATHS.test(path)) return null;
      const docsUrl = (options.docsUrl ?? url.origin).replace(/\/+$/, "");
      const limited = rate(clientAddress);
      const logId = `log_${ulid(now())}`;
      const base: Record<string, string> = {
        "x-log-id": logId,
        "content-language": LANGUAGE,
        ...limited.headers,
      };
      const problem = (status: number, type: string, title: string, detail: string, extra = {}) =>
        new Response(
          JSON.stringify({
            type: `https://docs.entrada.dev/problems/${type}`,
            title,
            status,
            detail,
            instance: path,
            logId,
          }),
          {
            status,
            headers: { ...base, "content-type": "application/problem+json", ...extra },
          },
        );
      if (limited.retryAfter !== null) {
        const retry = String(limited.retryAfter);
        return problem(429, "rate-limited", "Too many requests", `Retry in ${retry} seconds.`, {
          "retry-after": retry,
        });
      }
      if (path === "/api/mcp") {
        if (request.method !== "POST") {
          // No server-initiated stream and no session to end: GET and DELETE are 405 (Streamable HTTP allows it).
          return new Response(
            JSON.stringify({
              jsonrpc: "2.0",
              id: null,
              error: {
                code: -32000,
                message:
                  "Method not allowed: /api/mcp takes POST only (stateless server, no stream, no session).",
              },
            }),
            { status: 405, headers: { ...base, allow: "POST", "content-type": "application/json" } },
          );
        }
        const answer = await mcp(request, docsUrl);
        const headers = new Headers(answer.headers);
        for (const [k, v] of Object.entries(base)) headers.set(k, v);
        return new Response(answer.body, { status: answer.status, headers });
      }
      if (path === "/.well-known/mcp/server-card.json") {
        if (!accepts(request.headers.get("accept"), ["application/json", "application/*", "*/*"]))
          return problem(406, "not-acceptable", "Not acceptable", "The server card is application/json.");
        return new Response(JSON.stringify(card(docsUrl)), {
          headers: { ...base, "content-type": "application/json", "cache-control": "public, max-age=3600" },
        });
      }
      if (path === "/" || path === "/docs" || path === "/docs/") {
        const target = `${docsUrl}/reference`;
        // A browser (and any client on /docs) goes to the HTML reference; a program asking for `/` gets the map.
        const browser = /text\/html/i.test(request.headers.get("accept") ?? "");
        if (path !== "/" || browser)
          return new Response(null, { status: 302, headers: { ...base, location: target } });
        const links: Record<string, string> = {
          reference: target,
          referenceDocument: `${docsUrl}/reference/openapi.json`,
          mcp: `${docsUrl}/api/mcp`,
          serverCard: `${docsUrl}/.well-known/mcp/server-card.json`,
          markdown: `${docsUrl}/ai/index.md`,
        };
        for (const [name, href] of Object.entries(options.links ?? {}))
          links[name] = href.startsWith("/") ? `${url.origin}${href}` : href;
        return new Response(
          JSON.stringify({ title: snapshot.api.title, version: snapshot.api.version, links }),
          {
            headers: { ...base, "content-type": "application/json" },
          },
        );
      }
      let body: string | null;
      let type: string;
      let key: string | null = null;
      const extraHeaders: Record<string, string> = {};
      if (path === "/reference" || path === "/reference/" || path === REFERENCE_SCRIPT_PATH) {
        if (reference === undefined) reference = options.referenceHtml?.() ?? null;
        if (referenceScript === undefined) referenceScript = options.referenceScript?.() ?? null;
        if (reference === null || referenceScript === null)
          return problem(
            503,
            "reference-not-built",
            "Reference not built",
            "The HTML reference is built with `pnpm --filter @entrada/docs-server build`; meanwhile read /ai/index.md or /reference/openapi.json.",
          );
        if (path === REFERENCE_SCRIPT_PATH) {
          body = referenceScript;
          type = "text/javascript; charset=utf-8";
          key = "script";
        } else {
          body = reference;
          type = "text/html; charset=utf-8";
          key = "page";
          extraHeaders["content-security-policy"] = REFERENCE_CSP;
        }
      } else if (path === REFERENCE_START_PATH) {
        startScript ??= referenceStartScript(options.tryIt ?? null);
        body = startScript;
        type = "text/javascript; charset=utf-8";
        key = "start";
      } else if (path === "/reference/openapi.json") {
        referenceJson ??= JSON.stringify(referenceDocument(options.document, snapshot));
        body = referenceJson;
        type = "application/json";
        key = "document";
      } else {
        const match = /^\/ai\/([A-Za-z0-9-]+)\.md$/.exec(path);
        body = match ? page(match[1] as string, docsUrl) : null;
        type = "text/markdown; charset=utf-8";
        if (body === null)
          return problem(404, "not-found", "Not found", `There is no page ${path}. See /ai/index.md.`);
      }
      const etag = key === null ? `"${hash(body)}"` : etagOf(key, body);
      const headers: Record<string, string> = {
        ...base,
        "content-type": type,
        etag,
        "cache-control": "public, max-age=3600",
        ...extraHeaders,
      };
      // The renderer (4.2 MiB) goes gzipped (1.2 MiB, compressed once) to every client that accepts it.
      if (key === "script") headers.vary = "accept-encoding";
      if (
        request.headers
          .get("if-none-match")
          ?.split(",")
          .some((t) => t.trim() === etag)
      )
        return new Response(null, { status: 304, headers });
      if (key === "script" && /\bgzip\b/i.test(request.headers.get("accept-encoding") ?? "")) {
        gzippedScript ??= gzip(body);
        const bytes = await gzippedScript;
        return new Response(request.method === "HEAD" ? null : bytes, {
          headers: { ...headers, "content-encoding": "gzip" },
        });
      }
      return new Response(request.method === "HEAD" ? null : body, { headers });
    },
  };
}
