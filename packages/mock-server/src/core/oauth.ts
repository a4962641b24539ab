/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) as domain data: the configured clients, the token records a session
 * keeps, and the grant itself (client authentication, grant type, scopes). Stages and the session import it; it
 * imports no stage.
 */
import { randomToken } from "./ids.ts";
import { contentTypeOf } from "./media-type.ts";
import type { AuthInfo } from "./types.ts";

export interface ClientConfig {
  clientId: string;
  /** Valid secrets; two during a rotation. */
  secrets: string[];
  /** Scopes the client may request. */
  scopes: string[];
}

export const KNOWN_SCOPES = ["Shop", "TERP"] as const;

/** Demo clients, printed at start-up; replace them with `clients` / `--client`. */
export const DEMO_CLIENTS: ClientConfig[] = [
  { clientId: "entrada-demo", secrets: ["demo-secret"], scopes: ["Shop", "TERP"] },
  { clientId: "entrada-shop", secrets: ["shop-secret"], scopes: ["Shop"] },
];

export interface TokenRecord extends AuthInfo {
  expiresAt: number;
  /** Browser origins allowed to use a session token (empty: any). */
  allowedOrigins?: string[];
}

type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unsupported_grant_type"
  | "invalid_scope";

export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly description: string;
  readonly status: number;
  readonly basic: boolean;
  constructor(error: OAuthErrorCode, description: string, status = 400, basic = false) {
    super(description);
    this.error = error;
    this.description = description;
    this.status = status;
    this.basic = basic;
  }
}

const FORM_ONCE = ["grant_type", "scope", "client_id", "client_secret"];

function decodeFormComponent(value: string): string {
  return decodeURIComponent(value.replace(/\+/g, " "));
}

/** Parses `Authorization: Basic …` into id and secret (each form-urlencoded before base64, RFC 6749 §2.3.1). */
function parseBasic(header: string): { id: string; secret: string } {
  const match = /^Basic[ ]+([A-Za-z0-9+/]+={0,2})[ ]*$/i.exec(header);
  if (!match)
    throw new OAuthError(
      "invalid_client",
      "The Authorization header is not valid Basic credentials.",
      401,
      true,
    );
  let decoded: string;
  try {
    const binary = atob(match[1] ?? "");
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    throw new OAuthError("invalid_client", "The Basic credentials are not base64-encoded UTF-8.", 401, true);
  }
  const colon = decoded.indexOf(":");
  if (colon < 0)
    throw new OAuthError("invalid_client", "The Basic credentials lack a ':' separator.", 401, true);
  try {
    return {
      id: decodeFormComponent(decoded.slice(0, colon)),
      secret: decodeFormComponent(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError("invalid_client", "The Basic credentials are not form-urlencoded.", 401, true);
  }
}

export interface TokenGrant {
  token: string;
  record: TokenRecord;
  scope: string;
  expiresIn: number;
}

/** Runs the token endpoint: authenticates the client, checks grant and scope, issues a token. */
export function grantToken(input: {
  authorization: string | undefined;
  contentType: string | undefined;
  body: string;
  clients: Map<string, ClientConfig>;
  now: number;
  ttlSeconds: number;
}): TokenGrant {
  const mediaType = contentTypeOf(input.contentType).media;
  if (mediaType !== "application/x-www-form-urlencoded") {
    throw new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  const form = new URLSearchParams(input.body);
  for (const name of FORM_ONCE) {
    if (form.getAll(name).length > 1)
      throw new OAuthError("invalid_request", `The parameter ${name} is repeated.`);
  }
  const postId = form.get("client_id");
  const postSecret = form.get("client_secret");
  let credentials: { id: string; secret: string; basic: boolean };
  if (input.authorization !== undefined) {
    if (postSecret !== null) {
      throw new OAuthError(
        "invalid_request",
        "Use one client authentication method, not Basic and the body both.",
      );
    }
    credentials = { ...parseBasic(input.authorization), basic: true };
    if (postId !== null && postId !== credentials.id) {
      throw new OAuthError("invalid_request", "client_id in the body differs from the Basic credentials.");
    }
  } else if (postId !== null && postSecret !== null) {
    credentials = { id: postId, secret: postSecret, basic: false };
  } else {
    throw new OAuthError(
      "invalid_client",
      "Client authentication is required (HTTP Basic or client_id and client_secret in the body).",
      401,
      true,
    );
  }
  const client = input.clients.get(credentials.id);
  if (!client?.secrets.includes(credentials.secret)) {
    throw new OAuthError("invalid_client", "Unknown client or wrong secret.", 401, credentials.basic);
  }
  const grantType = form.get("grant_type");
  if (grantType === null || grantType === "")
    throw new OAuthError("invalid_request", "grant_type is required.");
  if (grantType !== "client_credentials") {
    throw new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported.");
  }
  const requested = (form.get("scope") ?? "").split(" ").filter((s) => s !== "");
  const scopes = requested.length === 0 ? [...client.scopes] : [...new Set(requested)];
  for (const scope of scopes) {
    if (!(KNOWN_SCOPES as readonly string[]).includes(scope)) {
      throw new OAuthError(
        "invalid_scope",
        `Unknown scope "${scope}". Known scopes: ${KNOWN_SCOPES.join(", ")}.`,
      );
    }
    if (!client.scopes.includes(scope)) {
      throw new OAuthError("invalid_scope", `The client may not request the scope "${scope}".`);
    }
  }
  const expiresIn = input.ttlSeconds;
  return {
    token: `at_${randomToken(40)}`,
    record: { kind: "client", clientId: client.clientId, scopes, expiresAt: input.now + expiresIn * 1000 },
    scope: scopes.join(" "),
    expiresIn,
  };
}
