import { isEntradaError } from "@entrada/sdk";
import { type FetchLike, feedFor } from "./feed.ts";
import { answerMcp } from "./mcp.ts";
import { languageOf, Words } from "./words.ts";

/** The scope the BI feed takes (and so the assistant). */
export const SCOPE = "Shop";

export interface BiAssistantOptions {
  /**
   * The API base URL the BI feed lives under (`…/bi/v1/odata`) and whose `/connect/token` issues the tokens; a
   * function of the request when it depends on it (mounted in the mock: the request's own origin).
   */
  apiUrl: string | ((request: Request) => string);
  /** Path of the MCP endpoint (default `/mcp`); its resource metadata is at `/.well-known/oauth-protected-resource` + path. */
  path?: string;
  /** Request headers passed on to the feed (the mock mounts it with `x-mock-session`). Never `authorization`. */
  forwardHeaders?: readonly string[];
  /** Also serve the authorization server's metadata (RFC 8414) for the API's token endpoint (default false). */
  authorizationServerMetadata?: boolean;
  /** Longest an answer gathers pages (ms, default 10 000). */
  timeLimitMs?: number;
  /** Most rows an answer gathers (default 10 000). */
  maxRows?: number;
  /** Rows an answer asks of the feed per page (default 1 000). */
  pageSize?: number;
  fetch?: FetchLike;
  /** The clock budgets are measured on (default `Date.now`). */
  now?: () => number;
  /**
   * What "today" is for a request (epoch ms; default `now`): the data's clock, e.g. the mock session's when
   * mounted in the mock, so "last week" means the same days to the assistant and to the feed.
   */
  today?: (request: Request) => number;
}

export interface BiAssistant {
  /** Answers a request for one of its paths, `null` for any other path. */
  fetch(request: Request): Promise<Response | null>;
  serves(pathname: string): boolean;
  readonly path: string;
}

const PRM = "/.well-known/oauth-protected-resource";
const ASM = "/.well-known/oauth-authorization-server";

const quoted = (v: string) => `"${v.replace(/["\\]/g, "")}"`;

/**
 * The BI assistant (spec §4.6): an MCP server over Streamable HTTP, stateless, protected as the MCP authorization
 * specification says. It holds no credentials and no data: each request's bearer token is checked by the BI feed
 * itself (the service document, fetched with it) and forwarded with every query, so the data scope is the feed's.
 * - no token: `401`, `WWW-Authenticate: Bearer resource_metadata="…", scope="Shop"`;
 * - a token the feed refuses (forged, expired, revoked): `401` with `error="invalid_token"`;
 * - a token without the scope: `403` with `error="insufficient_scope"`;
 * - `GET /.well-known/oauth-protected-resource<path>`: the protected resource metadata (RFC 9728).
 * @example const assistant = createBiAssistant({ apiUrl: "https://api.entrada.example" }); await assistant.fetch(req)
 */
export function createBiAssistant(options: BiAssistantOptions): BiAssistant {
  const path = options.path ?? "/mcp";
  const now = options.now ?? Date.now;
  const forward = (options.forwardHeaders ?? [])
    .map((h) => h.toLowerCase())
    .filter((h) => h !== "authorization");
  const apiUrl = (request: Request) =>
    (typeof options.apiUrl === "function" ? options.apiUrl(request) : options.apiUrl).replace(/\/+$/, "");
  const metadataPath = `${PRM}${path}`;
  const serves = (p: string) =>
    p === path || p === metadataPath || (options.authorizationServerMetadata === true && p === ASM);

  const resourceOf = (url: URL) => `${url.origin}${path}`;
  const metadataUrlOf = (url: URL) => `${url.origin}${metadataPath}`;

  function challenge(url: URL, status: 400 | 401 | 403, error: string | null, description: string): Response {
    const params = [
      ...(error ? [`error=${quoted(error)}`, `error_description=${quoted(description)}`] : []),
      `resource_metadata=${quoted(metadataUrlOf(url))}`,
      `scope=${quoted(SCOPE)}`,
    ];
    const title = status === 400 ? "Bad request" : status === 401 ? "Unauthorized" : "Forbidden";
    return new Response(JSON.stringify({ type: "about:blank", title, status, detail: description }), {
      status,
      headers: {
        "content-type": "application/problem+json",
        "www-authenticate": `Bearer ${params.join(", ")}`,
        "cache-control": "no-store",
      },
    });
  }

  function json(body: unknown, status = 200): Response {
    return new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "cache-control": "public, max-age=3600" },
    });
  }

  return {
    path,
    serves,
    async fetch(request) {
      const url = new URL(request.url);
      if (!serves(url.pathname)) return null;
      if (url.pathname === metadataPath) {
        // RFC 9728 §3.2: the resource this document is about, and who issues its tokens.
        return json({
          resource: resourceOf(url),
          authorization_servers: [apiUrl(request)],
          scopes_supported: [SCOPE],
          bearer_methods_supported: ["header"],
          resource_name: "Entrada BI assistant",
        });
      }
      if (url.pathname === ASM) {
        const issuer = apiUrl(request);
        return json({
          issuer,
          token_endpoint: `${issuer}/connect/token`,
          grant_types_supported: ["client_credentials"],
          token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
          scopes_supported: ["Shop", "TERP"],
          response_types_supported: [],
        });
      }
      const header = request.headers.get("authorization") ?? "";
      const match = /^Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header);
      if (!match)
        return header
          ? challenge(url, 400, "invalid_request", "The Authorization header must be `Bearer <token>`.")
          : challenge(
              url,
              401,
              null,
              "A bearer token of the BI API (client credentials, scope Shop) is required.",
            );
      // The feed answers in the caller's language too (event and gate names), as the assistant's tables do.
      const headers: Record<string, string> = {};
      const language = request.headers.get("accept-language");
      if (language) headers["accept-language"] = language;
      for (const name of forward) {
        const value = request.headers.get(name);
        if (value !== null) headers[name] = value;
      }
      const feed = feedFor({
        apiUrl: apiUrl(request),
        token: match[1] as string,
        headers,
        fetch: options.fetch,
      });
      // The feed is the judge of the token: its service document answers 401 or 403 exactly when a query would.
      try {
        await feed.page(feed.root.href, { maxPageSize: 1 });
      } catch (error) {
        const status = isEntradaError(error) ? error.status : undefined;
        if (status === 401)
          return challenge(
            url,
            401,
            "invalid_token",
            "The bearer token is not valid for the BI feed (expired, revoked or not issued by its authorization server).",
          );
        if (status === 403)
          return challenge(
            url,
            403,
            "insufficient_scope",
            "The bearer token lacks the scope Shop that the BI feed needs.",
          );
        return new Response(
          JSON.stringify({
            type: "about:blank",
            title: "Bad gateway",
            status: 502,
            detail: "The BI feed could not be reached to check the token; try again later.",
          }),
          { status: 502, headers: { "content-type": "application/problem+json" } },
        );
      }
      if (request.method !== "POST")
        return new Response(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: {
              code: -32000,
              message: `Method not allowed: ${path} takes POST only (stateless server, no stream).`,
            },
          }),
          { status: 405, headers: { allow: "POST", "content-type": "application/json" } },
        );
      const timeLimit = options.timeLimitMs ?? 10_000;
      const maxRows = options.maxRows ?? 10_000;
      return answerMcp(request, {
        feed,
        now,
        today: () => (options.today ? options.today(request) : now()),
        words: new Words(languageOf(language)),
        budget: () => ({ deadline: now() + timeLimit, maxRows, pageSize: options.pageSize ?? 1000 }),
      });
    },
  };
}
