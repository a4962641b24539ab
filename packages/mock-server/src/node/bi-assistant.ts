import type { MockCore } from "../core/engine.ts";
import type { NodeMountedServer } from "./mounted.ts";

/** Where the mock mounts the BI assistant MCP server (`@entrada/bi-assistant`). */
export const BI_ASSISTANT_PATH = "/bi/mcp";
/** Its paths: the MCP endpoint, its protected resource metadata, this server's authorization server metadata. */
export const BI_ASSISTANT_PATHS =
  /^\/(?:bi\/mcp|\.well-known\/oauth-protected-resource\/bi\/mcp|\.well-known\/oauth-authorization-server)(?:[?#]|$)/;

/**
 * The BI assistant (an optional peer), created on its first request; `null` when the package is not installed. It
 * reaches the feed in process (the engine, not a loopback socket) with the caller's token and `X-Mock-Session`, so
 * it answers from the same session's data the feed would; its authorization server is this server's
 * `/connect/token`.
 */
export function lazyBiAssistant(core: MockCore): () => Promise<NodeMountedServer | null> {
  let loaded: Promise<NodeMountedServer | null> | null = null;
  const inProcess = async (input: string, init: RequestInit): Promise<Response> => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const response = await core.handle({ method: init.method ?? "GET", url: input, headers, body: null });
    if (response.drop) throw new TypeError("fetch failed: the mock dropped the connection (fault injection)");
    return new Response(response.body as BodyInit | null, {
      status: response.status,
      headers: response.headers,
    });
  };
  return () => {
    loaded ??= import("@entrada/bi-assistant").then(
      ({ createBiAssistant, answerNode }) => {
        const assistant = createBiAssistant({
          apiUrl: (request) => new URL(request.url).origin,
          path: BI_ASSISTANT_PATH,
          forwardHeaders: ["x-mock-session"],
          // "Today" is the caller's session clock, the one its seeded history and live data follow.
          today: (request) => core.session(request.headers.get("x-mock-session") ?? "default").clock.now(),
          authorizationServerMetadata: true,
          fetch: inProcess,
        });
        return {
          // The path as `answerNode` reads it: the request target as sent, without its query.
          serves: (request) => assistant.serves(sentPath(request.url)),
          answer: (req, res, body) => answerNode(assistant, req, res, body),
        };
      },
      () => null,
    );
    return loaded;
  };
}

/** The path of an absolute URL as sent, up to its query. */
function sentPath(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start < 0 ? "/" : (url.slice(start).split("?")[0] as string);
}
