import docsDocument from "@entrada/openapi/docs-openapi.json" with { type: "json" };
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { Ajv, type ValidateFunction } from "ajv";
import { negotiateCulture } from "../../core/culture.ts";
import { prefixedId } from "../../core/ids.ts";
import type { Culture, MockRequest, MockResponse } from "../../core/types.ts";
import { buildSnapshot, type DocsSnapshot, dereference, type GuideName, kebab } from "./content.ts";
import { indexMarkdown, moduleMarkdown } from "./markdown.ts";
import { SearchIndex, searchDocs } from "./search.ts";
import { TOOLS, type ToolContext, type ToolDef } from "./tools.ts";

/** MCP revisions served (newest first); `initialize` picks the client's when listed, else the newest. */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] as const;
const MAX_BODY = 1024 * 1024;
const SERVER_INFO = { name: "entrada-docs", title: "Entrada documentation", version: "1.0.0" };
const INSTRUCTIONS =
  "Read-only documentation of the Entrada API (ticket sales, entrance, marketing activation). Start with list_modules or search_docs; get_endpoint gives the full contract of one operation; get_guide returns the Guidelines, Webhooks and shop front-end guides.";

export interface DocsServerOptions {
  /** The API contract the documentation describes (`@entrada/openapi/openapi.json`). */
  document: unknown;
  /** Markdown of the guides by name. */
  guides: Partial<Record<GuideName, string>>;
  /** Public URL of the documentation server for links; default: the request's origin. */
  docsUrl?: string;
  /** Requests per window per client address; `false` disables limiting. Default 600 per 60 s. */
  rateLimit?: { limit: number; windowSeconds: number } | false;
  /** Clock (default Date.now). */
  now?: () => number;
}

export interface DocsServer {
  /** Answer one HTTP request (any transport hands a MockRequest in). Returns null for paths it does not serve. */
  handle(request: MockRequest, clientAddress?: string): Promise<MockResponse | null>;
  /** Path prefixes this server answers: `/api/mcp`, `/.well-known/mcp/server-card.json`, `/ai/`. */
  readonly paths: readonly string[];
  readonly snapshot: DocsSnapshot;
}

type Obj = Record<string, unknown>;

const MESSAGES: Record<string, Record<Culture, string>> = {
  parse: {
    "de-CH": "Der Body ist kein gültiges JSON.",
    "fr-CH": "Le corps n'est pas du JSON valide.",
    "it-CH": "Il corpo non è JSON valido.",
    "en-GB": "The body is not valid JSON.",
  },
  batch: {
    "de-CH": "Batches werden nicht angenommen: eine JSON-RPC-Nachricht pro Anfrage.",
    "fr-CH": "Les lots ne sont pas acceptés : un message JSON-RPC par requête.",
    "it-CH": "I batch non sono accettati: un messaggio JSON-RPC per richiesta.",
    "en-GB": "Batches are not accepted: send one JSON-RPC message per request.",
  },
  invalid: {
    "de-CH": 'Keine JSON-RPC-2.0-Nachricht (jsonrpc "2.0" und method fehlen oder sind ungültig).',
    "fr-CH": 'Pas un message JSON-RPC 2.0 (jsonrpc "2.0" et method manquants ou invalides).',
    "it-CH": 'Non è un messaggio JSON-RPC 2.0 (jsonrpc "2.0" e method mancanti o non validi).',
    "en-GB": 'Not a JSON-RPC 2.0 message (jsonrpc "2.0" and method missing or invalid).',
  },
  version: {
    "de-CH": "Nicht unterstützte MCP-Protocol-Version {v}; unterstützt: {list}.",
    "fr-CH": "MCP-Protocol-Version {v} non prise en charge ; prises en charge : {list}.",
    "it-CH": "MCP-Protocol-Version {v} non supportata; supportate: {list}.",
    "en-GB": "Unsupported MCP-Protocol-Version {v}; supported: {list}.",
  },
  accept: {
    "de-CH": "Nicht annehmbar: Accept muss application/json und text/event-stream enthalten.",
    "fr-CH": "Non acceptable : Accept doit contenir application/json et text/event-stream.",
    "it-CH": "Non accettabile: Accept deve contenere application/json e text/event-stream.",
    "en-GB": "Not acceptable: Accept must list both application/json and text/event-stream.",
  },
  mediaType: {
    "de-CH": "Nicht unterstützter Medientyp: Content-Type muss application/json sein.",
    "fr-CH": "Type de média non pris en charge : Content-Type doit être application/json.",
    "it-CH": "Tipo di media non supportato: Content-Type deve essere application/json.",
    "en-GB": "Unsupported media type: Content-Type must be application/json.",
  },
  tooLarge: {
    "de-CH": "Die Nachricht ist grösser als 1 MiB.",
    "fr-CH": "Le message dépasse 1 Mio.",
    "it-CH": "Il messaggio supera 1 MiB.",
    "en-GB": "The message is larger than 1 MiB.",
  },
  rate: {
    "de-CH": "Zu viele Anfragen; bitte in {s} Sekunden erneut versuchen.",
    "fr-CH": "Trop de requêtes ; réessayez dans {s} secondes.",
    "it-CH": "Troppe richieste; riprovare tra {s} secondi.",
    "en-GB": "Too many requests; retry in {s} seconds.",
  },
  method: {
    "de-CH": "Unbekannte Methode {m}.",
    "fr-CH": "Méthode inconnue {m}.",
    "it-CH": "Metodo sconosciuto {m}.",
    "en-GB": "Unknown method {m}.",
  },
  tool: {
    "de-CH": "Unbekanntes Werkzeug {t}; verfügbar: {list}.",
    "fr-CH": "Outil inconnu {t} ; disponibles : {list}.",
    "it-CH": "Strumento sconosciuto {t}; disponibili: {list}.",
    "en-GB": "Unknown tool {t}; available: {list}.",
  },
  args: {
    "de-CH": "Ungültige Argumente für {t}: {detail}",
    "fr-CH": "Arguments invalides pour {t} : {detail}",
    "it-CH": "Argomenti non validi per {t}: {detail}",
    "en-GB": "Invalid arguments for {t}: {detail}",
  },
  notAllowed: {
    "de-CH": "Methode nicht erlaubt: /api/mcp nimmt nur POST an (kein Server-Stream, keine Sitzung).",
    "fr-CH": "Méthode non autorisée : /api/mcp n'accepte que POST (pas de flux serveur, pas de session).",
    "it-CH": "Metodo non consentito: /api/mcp accetta solo POST (nessuno stream, nessuna sessione).",
    "en-GB": "Method not allowed: /api/mcp takes POST only (no server stream, no session).",
  },
  notFound: {
    "de-CH": "Keine Seite {p}. Siehe /ai/index.md.",
    "fr-CH": "Aucune page {p}. Voir /ai/index.md.",
    "it-CH": "Nessuna pagina {p}. Vedi /ai/index.md.",
    "en-GB": "No page {p}. See /ai/index.md.",
  },
};

function say(key: string, culture: Culture, vars: Record<string, string | number> = {}): string {
  return (MESSAGES[key]?.[culture] ?? key).replace(/\{(\w+)\}/g, (_, k: string) => String(vars[k] ?? ""));
}

function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16);
}

interface MediaRange {
  type: string;
  q: number;
}

function mediaRanges(accept: string | undefined): MediaRange[] {
  if (!accept) return [];
  return accept.split(",").map((part) => {
    const [type = "", ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/i.exec(p)).find(Boolean);
    return { type: type.trim().toLowerCase(), q: q ? Number(q[1]) : 1 };
  });
}

/** The tools as the MCP `Tool` objects of tools/list and the server card (schemas from the contract). */
function toolList(): Obj[] {
  const schemas = (docsDocument as { components: { schemas: Obj } }).components.schemas;
  return TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: stripOpenApi(dereference(docsDocument, schemas[tool.inputSchema] ?? { type: "object" })),
    // The bundled contract keeps only referenced components; until it keeps the result schemas, say "object".
    outputSchema: stripOpenApi(dereference(docsDocument, schemas[tool.outputSchema] ?? { type: "object" })),
    annotations: { title: tool.title, readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  }));
}

/** Drop OpenAPI-only keywords so the schemas are plain JSON Schema for MCP clients. */
function stripOpenApi(value: unknown): Obj {
  if (Array.isArray(value)) return value.map(stripOpenApi) as unknown as Obj;
  if (value === null || typeof value !== "object") return value as Obj;
  const out: Obj = {};
  for (const [k, v] of Object.entries(value as Obj)) {
    if (k.startsWith("x-") || k === "example" || k === "examples") continue;
    out[k] =
      k === "properties"
        ? Object.fromEntries(Object.entries(v as Obj).map(([p, s]) => [p, stripOpenApi(s)]))
        : stripOpenApi(v);
  }
  if (out.type === "object" && !("properties" in out) && out.additionalProperties === false)
    out.properties = {};
  return out;
}

/**
 * The documentation server: MCP over Streamable HTTP at `/api/mcp` (stateless JSON-RPC 2.0, the official MCP SDK's
 * `Server` answering each message over an in-memory transport), the server card, and Markdown mirrors under `/ai`.
 * Platform-free: a transport hands in a MockRequest and sends back the MockResponse.
 * @example const docs = createDocsServer({ document, guides }); const res = await docs.handle(request);
 */
export function createDocsServer(options: DocsServerOptions): DocsServer {
  const snapshot = buildSnapshot(options.document, options.guides);
  const index = new SearchIndex(searchDocs(snapshot));
  const tools = toolList();
  const ajv = new Ajv({ strict: false, allErrors: false });
  const validators = new Map<string, ValidateFunction>(
    TOOLS.map((t) => [t.name, ajv.compile((tools.find((x) => x.name === t.name) as Obj).inputSchema as Obj)]),
  );
  const now = options.now ?? Date.now;
  const limit = options.rateLimit === undefined ? { limit: 600, windowSeconds: 60 } : options.rateLimit;
  const windows = new Map<string, { start: number; count: number }>();

  function rate(address: string): { headers: Record<string, string>; retryAfter: number | null } {
    if (!limit) return { headers: {}, retryAfter: null };
    const t = now();
    let w = windows.get(address);
    if (!w || t - w.start >= limit.windowSeconds * 1000) {
      w = { start: t, count: 0 };
      windows.set(address, w);
      if (windows.size > 10_000) windows.clear();
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

  function card(docsUrl: string): Obj {
    return {
      $schema: "https://static.modelcontextprotocol.io/schemas/mcp-server-card/v1.json",
      version: "1.0",
      protocolVersion: PROTOCOL_VERSIONS[0],
      supportedProtocolVersions: [...PROTOCOL_VERSIONS],
      serverInfo: SERVER_INFO,
      description: INSTRUCTIONS,
      documentationUrl: `${docsUrl}/ai/index.md`,
      transport: { type: "streamable-http", endpoint: "/api/mcp", stateless: true },
      capabilities: { tools: { listChanged: false } },
      authentication: { required: false },
      tools,
    };
  }

  /** Run one JSON-RPC request through an MCP SDK server instance (stateless: one per message). */
  async function dispatch(message: Obj, culture: Culture, docsUrl: string): Promise<Obj> {
    const server = new Server(SERVER_INFO, {
      capabilities: { tools: { listChanged: false } },
      instructions: INSTRUCTIONS,
    });
    const ctx: ToolContext = { snapshot, index, docsUrl };
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: tools as never }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const name = request.params.name;
      const tool = TOOLS.find((t) => t.name === name) as ToolDef | undefined;
      if (!tool) {
        throw new McpError(
          ErrorCode.InvalidParams,
          say("tool", culture, { t: name, list: TOOLS.map((t) => t.name).join(", ") }),
        );
      }
      const args = (request.params.arguments ?? {}) as Obj;
      const validate = validators.get(tool.name) as ValidateFunction;
      if (!validate(args)) {
        const e = validate.errors?.[0];
        const detail =
          `${e?.instancePath || "/"} ${e?.message ?? ""}${e?.params && "additionalProperty" in e.params ? ` (${String(e.params.additionalProperty)})` : ""}`.trim();
        throw new McpError(ErrorCode.InvalidParams, say("args", culture, { t: tool.name, detail }));
      }
      const outcome = tool.run(ctx, args);
      return outcome.ok
        ? {
            content: [{ type: "text", text: outcome.markdown }],
            structuredContent: outcome.structured,
            isError: false,
          }
        : { content: [{ type: "text", text: outcome.markdown }], isError: true };
    });
    const [client, transport] = InMemoryTransport.createLinkedPair();
    const answer = new Promise<Obj>((resolve) => {
      client.onmessage = (m) => resolve(m as unknown as Obj);
    });
    await server.connect(transport);
    await client.start();
    await client.send(message as unknown as JSONRPCMessage);
    const response = await answer;
    await server.close();
    return response;
  }

  function rpcError(id: unknown, code: number, message: string): string {
    return JSON.stringify({ jsonrpc: "2.0", id: id ?? null, error: { code, message } });
  }

  async function mcp(
    request: MockRequest,
    culture: Culture,
    docsUrl: string,
    base: Record<string, string>,
  ): Promise<MockResponse> {
    const json = { ...base, "content-type": "application/json" };
    const fail = (
      status: number,
      code: number,
      key: string,
      vars: Record<string, string | number> = {},
      id: unknown = null,
    ): MockResponse => ({
      status,
      headers: json,
      body: rpcError(id, code, say(key, culture, vars)),
    });
    if (request.method !== "POST")
      return { ...fail(405, -32000, "notAllowed"), headers: { ...json, allow: "POST" } };
    const contentType = (request.headers["content-type"] ?? "").split(";")[0]?.trim().toLowerCase();
    if (contentType !== "application/json") return fail(415, -32000, "mediaType");
    const ranges = mediaRanges(request.headers.accept);
    const jsonRange = ranges.find((r) => r.type === "application/json" && r.q > 0);
    const sseRange = ranges.find((r) => r.type === "text/event-stream" && r.q > 0);
    if (!jsonRange || !sseRange) return fail(406, -32000, "accept");
    if ((request.body?.length ?? 0) > MAX_BODY) return fail(413, -32000, "tooLarge");
    let message: unknown;
    try {
      message = JSON.parse(
        new TextDecoder("utf-8", { fatal: true }).decode(request.body ?? new Uint8Array()),
      );
    } catch {
      return fail(400, -32700, "parse");
    }
    if (Array.isArray(message)) return fail(400, -32600, "batch");
    const m = message as Obj;
    const id = typeof m?.id === "string" || typeof m?.id === "number" ? m.id : null;
    if (
      !m ||
      typeof m !== "object" ||
      m.jsonrpc !== "2.0" ||
      typeof m.method !== "string" ||
      ("id" in m && id === null)
    ) {
      return fail(400, -32600, "invalid", {}, id);
    }
    const version = request.headers["mcp-protocol-version"];
    if (version !== undefined && !(PROTOCOL_VERSIONS as readonly string[]).includes(version)) {
      return fail(400, -32600, "version", { v: version, list: PROTOCOL_VERSIONS.join(", ") }, id);
    }
    if (!("id" in m)) return { status: 202, headers: base, body: null };
    if (!["initialize", "ping", "tools/list", "tools/call"].includes(m.method)) {
      return {
        status: 200,
        headers: json,
        body: rpcError(id, -32601, say("method", culture, { m: m.method })),
      };
    }
    if (m.method === "initialize") {
      // Answer with the client's revision when we serve it, else our newest (the SDK may know older ones).
      const params = (m.params ?? {}) as Obj;
      if (!(PROTOCOL_VERSIONS as readonly string[]).includes(String(params.protocolVersion))) {
        m.params = { ...params, protocolVersion: PROTOCOL_VERSIONS[0] };
      }
    }
    const response = await dispatch(m, culture, docsUrl);
    const text = JSON.stringify(response);
    if (sseRange.q > jsonRange.q) {
      return {
        status: 200,
        headers: { ...base, "content-type": "text/event-stream", "cache-control": "no-cache" },
        body: `event: message\ndata: ${text}\n\n`,
      };
    }
    return { status: 200, headers: json, body: text };
  }

  function page(name: string, docsUrl: string): string | null {
    if (name === "index") return indexMarkdown(snapshot, docsUrl);
    if (name.startsWith("guide-"))
      return snapshot.guides.find((g) => `guide-${g.name}` === name)?.markdown.concat("\n") ?? null;
    const module = snapshot.modules.find((m) => `module-${kebab(m.name)}` === name);
    return module ? moduleMarkdown(module, docsUrl) : null;
  }

  return {
    snapshot,
    paths: ["/api/mcp", "/.well-known/mcp/server-card.json", "/ai/"],
    async handle(request, clientAddress = "local") {
      const url = new URL(request.url);
      const path = url.pathname;
      const served =
        path === "/api/mcp" || path === "/.well-known/mcp/server-card.json" || path.startsWith("/ai/");
      if (!served) return null;
      let culture: Culture = "en-GB";
      const acceptLanguage = request.headers["accept-language"];
      if (acceptLanguage) {
        try {
          culture = negotiateCulture(acceptLanguage);
        } catch {
          culture = "en-GB";
        }
      }
      const docsUrl = (options.docsUrl ?? url.origin).replace(/\/+$/, "");
      const limited = rate(clientAddress);
      const base: Record<string, string> = {
        "x-log-id": prefixedId("log", now()),
        "content-language": culture,
        vary: "Accept-Language",
        ...limited.headers,
      };
      if (limited.retryAfter !== null) {
        return {
          status: 429,
          headers: { ...base, "retry-after": String(limited.retryAfter), "content-type": "application/json" },
          body: rpcError(null, -32000, say("rate", culture, { s: limited.retryAfter })),
        };
      }
      if (path === "/api/mcp") return mcp(request, culture, docsUrl, base);
      if (path === "/.well-known/mcp/server-card.json") {
        const ranges = mediaRanges(request.headers.accept);
        const ok =
          ranges.length === 0 ||
          ranges.some((r) => r.q > 0 && ["application/json", "application/*", "*/*"].includes(r.type));
        if (!ok)
          return {
            status: 406,
            headers: { ...base, "content-type": "application/json" },
            body: rpcError(null, -32000, say("accept", culture)),
          };
        return {
          status: 200,
          headers: { ...base, "content-type": "application/json", "cache-control": "public, max-age=3600" },
          body: JSON.stringify(card(docsUrl)),
        };
      }
      const match = /^\/ai\/([a-z0-9-]+)\.md$/.exec(path);
      const markdown = match ? page(match[1] as string, docsUrl) : null;
      if (markdown === null) {
        return {
          status: 404,
          headers: { ...base, "content-type": "application/problem+json" },
          body: JSON.stringify({
            type: "https://docs.entrada.dev/problems/not-found",
            title: "Not found",
            status: 404,
            detail: say("notFound", culture, { p: path }),
            instance: path,
            logId: base["x-log-id"],
          }),
        };
      }
      const etag = `"${hash(markdown)}"`;
      const headers = {
        ...base,
        "content-type": "text/markdown; charset=utf-8",
        etag,
        "cache-control": "public, max-age=3600",
      };
      if (request.headers["if-none-match"]?.split(",").some((t) => t.trim() === etag))
        return { status: 304, headers, body: null };
      return { status: 200, headers, body: markdown };
    },
  };
}
