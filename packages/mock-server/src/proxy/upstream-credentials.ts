/**
 * `--fallback` for an app that holds real credentials: the bearer tokens and shop session tokens the upstream issued
 * in this run (seen passing through the proxy: `createToken` and `createSession` answers) and the clients it
 * authenticated (`createToken` requests it answered 200), lent to the local mock when it answers in the upstream's
 * place, so the app's next request does not turn into a 401. Kept in memory only, for this process, bounded (the
 * oldest token or client out first), each token until the expiry the upstream gave it.
 */
import type { MockCore } from "../core/engine.ts";
import type { ClientConfig, TokenRecord } from "../core/oauth.ts";

const MAX_TOKENS = 5_000;
const MAX_CLIENTS = 100;
const BEARER = /^Bearer[ ]+(\S+)[ ]*$/i;
const SESSION_ID = /^[A-Za-z0-9_-]{1,64}$/;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function json(body: Uint8Array | null): Record<string, unknown> | null {
  if (body === null) return null;
  try {
    const value = JSON.parse(new TextDecoder().decode(body)) as unknown;
    return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The client of a token request: Basic credentials, or `client_id`/`client_secret` in the form body. */
function clientOf(headers: Headers, body: Uint8Array | null): { id: string; secret: string } | null {
  const basic = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header(headers, "authorization") ?? "");
  if (basic) {
    try {
      const decoded = new TextDecoder("utf-8", { fatal: true }).decode(
        Uint8Array.from(atob(basic[1] ?? ""), (c) => c.charCodeAt(0)),
      );
      const colon = decoded.indexOf(":");
      if (colon < 0) return null;
      const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, " "));
      return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
    } catch {
      return null;
    }
  }
  const form = new URLSearchParams(body ? new TextDecoder().decode(body) : "");
  const id = form.get("client_id");
  const secret = form.get("client_secret");
  return id && secret ? { id, secret } : null;
}

export interface ObservedExchange {
  operationId: string | undefined;
  requestHeaders: Headers;
  requestBody: Uint8Array | null;
  status: number;
  responseBody: Uint8Array | null;
}

export class UpstreamCredentials {
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly clients = new Map<string, ClientConfig>();

  constructor(private readonly now: () => number = Date.now) {}

  get size(): { tokens: number; clients: number } {
    return { tokens: this.tokens.size, clients: this.clients.size };
  }

  /** Learns from an answer of the upstream: an issued token, an authenticated client, a shop session token. */
  observe(exchange: ObservedExchange): void {
    if (exchange.status < 200 || exchange.status > 299) return;
    if (exchange.operationId === "createToken") {
      const client = clientOf(exchange.requestHeaders, exchange.requestBody);
      const body = json(exchange.responseBody);
      if (!client || typeof body?.access_token !== "string") return;
      const scopes = typeof body.scope === "string" ? body.scope.split(" ").filter(Boolean) : [];
      const known = this.clients.get(client.id);
      this.clients.delete(client.id);
      this.clients.set(client.id, {
        clientId: client.id,
        secrets: [...new Set([client.secret, ...(known?.secrets ?? [])])].slice(0, 2),
        scopes: [...new Set([...scopes, ...(known?.scopes ?? [])])],
      });
      if (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value as string);
      const lifetime = typeof body.expires_in === "number" ? body.expires_in : 3600;
      this.add(body.access_token, {
        kind: "client",
        clientId: client.id,
        scopes,
        expiresAt: this.now() + lifetime * 1000,
      });
    } else if (exchange.operationId === "createSession") {
      const bearer = BEARER.exec(header(exchange.requestHeaders, "authorization") ?? "")?.[1];
      const creator = bearer ? this.tokens.get(bearer) : undefined;
      const body = json(exchange.responseBody);
      if (!creator || typeof body?.sessionToken !== "string" || typeof body.sessionId !== "string") return;
      const expiresAt = typeof body.expiresAt === "string" ? Date.parse(body.expiresAt) : Number.NaN;
      this.add(body.sessionToken, {
        kind: "session",
        clientId: creator.clientId,
        scopes: ["Shop"],
        sessionId: body.sessionId,
        expiresAt: Number.isFinite(expiresAt) ? expiresAt : this.now() + 900_000,
        allowedOrigins: Array.isArray(body.allowedOrigins) ? body.allowedOrigins.map(String) : [],
      });
    }
  }

  private add(token: string, record: TokenRecord): void {
    this.tokens.set(token, record);
    if (this.tokens.size > MAX_TOKENS) this.tokens.delete(this.tokens.keys().next().value as string);
  }

  /**
   * Before the local mock answers a request: the upstream's token the request carries, and the client of a token
   * request the upstream authenticated before, become known to the mock session the request goes to.
   */
  lend(core: MockCore, headers: Headers, body: Uint8Array | null): void {
    const sessionId = header(headers, "x-mock-session") ?? "default";
    if (!SESSION_ID.test(sessionId)) return;
    const session = core.session(sessionId);
    const bearer = BEARER.exec(header(headers, "authorization") ?? "")?.[1];
    const record = bearer ? this.tokens.get(bearer) : undefined;
    if (bearer && record && record.expiresAt > this.now() && !session.tokens.has(bearer)) {
      // The mock's clock may run apart from real time: the token keeps the lifetime it has left.
      session.addToken(bearer, {
        ...record,
        expiresAt: session.clock.now() + (record.expiresAt - this.now()),
      });
    }
    const client = clientOf(headers, body);
    const known = client ? this.clients.get(client.id) : undefined;
    if (client && known?.secrets.includes(client.secret)) {
      const local = session.clients.get(client.id);
      session.clients.set(client.id, {
        clientId: client.id,
        secrets: [...new Set([...(local?.secrets ?? []), client.secret])],
        scopes: [...new Set([...(local?.scopes ?? []), ...known.scopes])],
      });
    }
  }
}
