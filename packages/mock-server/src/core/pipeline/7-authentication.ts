/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) and bearer tokens (RFC 6750) for the mock.
 * Tokens are opaque and live in the mock session, so resetting a session's data keeps them valid.
 */

import type { OperationSpec } from "../document.ts";
import { randomToken } from "../ids.ts";
import type { LinkRejection, LinkSigner } from "../links.ts";
import { formatMessage, msg, pickText } from "../messages.ts";
import { stageProblem } from "../problems.ts";
import type { MockSession } from "../session.ts";
import { rawPath, withinMount } from "../target.ts";
import type { AuthInfo, Culture, LocalizedText } from "../types.ts";
import type { OperationRequest } from "./request.ts";

/**
 * Who is calling: a signed asset link, a bearer token (client or shop session) with the operation's scopes, or
 * nobody on a public operation. RFC 6750 challenges in WWW-Authenticate; localized details.
 */

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
  const mediaType = (input.contentType ?? "").split(";")[0]?.trim().toLowerCase();
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

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

export function parseBearer(header: string): string | null {
  return BEARER.exec(header)?.[1] ?? null;
}

const REALM = 'Bearer realm="entrada"';

/**
 * The authentication stage: the caller (null: anonymous on a public operation or through a valid signed link), or
 * the 401/403 to answer.
 */
export function authenticateRequest(
  rq: OperationRequest,
  links: LinkSigner,
  mountPath: string,
): AuthInfo | null {
  const { op, url, headers, now, culture, logId, origin, pathname, rateHeaders } = rq;
  const signatureParam = op.security.signedUrl;
  if (!op.security.public && signatureParam !== null && url.searchParams.has(signatureParam)) {
    // A signed link authorizes this one asset (the signature covers the path as sent) until it expires. A signature
    // that is sent is always verified, also next to a bearer token (a bad one never rides on the token).
    const linkPath = withinMount(mountPath, rawPath(rq.request.url)) ?? "/";
    const rejection = links.verify(
      linkPath,
      url.searchParams.get("expires") ?? undefined,
      url.searchParams.get(signatureParam) ?? undefined,
      now,
      rq.session.id,
    );
    // A forged, tampered or malformed link is refused even next to a token; an expired genuine one gives way to a
    // valid bearer token (the embedded shop downloads a lapsed link through the API with its session token).
    if (rejection !== null && (rejection !== "expired" || headers.authorization === undefined)) {
      throw stageProblem("unauthorized", {
        detail: linkRejectionDetail(rejection, culture),
        headers: { "www-authenticate": REALM },
        extensions: { reason: rejection === "expired" ? "link-expired" : "link-invalid" },
      });
    }
    if (headers.authorization === undefined) return null;
    return authenticateBearer(op, rq.session, headers, now, culture, logId, origin, pathname, rateHeaders);
  }
  if (
    !op.security.public ||
    // Public with token alternatives (`{}` next to them: images, icons): anonymous is fine, but a token that is
    // sent is checked like anywhere else (RFC 6750 §3.1: an invalid token is a 401, never silently ignored).
    (headers.authorization !== undefined && (op.security.session || op.security.scopeSets.length > 0))
  ) {
    return authenticateBearer(op, rq.session, headers, now, culture, logId, origin, pathname, rateHeaders);
  }
  return null;
}

/** Checks the bearer token: known, unexpired, of the right kind and origin, with one of the scope sets. */
function authenticateBearer(
  op: OperationSpec,
  session: MockSession,
  headers: Record<string, string>,
  now: number,
  culture: Culture,
  logId: string,
  origin: string | undefined,
  pathname: string,
  rateHeaders: Record<string, string>,
): AuthInfo {
  const header = headers.authorization;
  if (header === undefined) {
    throw stageProblem("unauthorized", {
      headers: { "www-authenticate": REALM },
    });
  }
  const token = parseBearer(header);
  const record: TokenRecord | undefined = token ? session.tokens.get(token) : undefined;
  if (!record || record.expiresAt <= now) {
    if (record && token) session.tokens.delete(token);
    const why = !token
      ? "The Authorization header is not a Bearer token."
      : record
        ? "The token has expired."
        : "The token is not valid.";
    throw stageProblem("unauthorized", {
      detail: localizedAuthDetail(why, culture),
      headers: {
        "www-authenticate": `${REALM}, error="invalid_token", error_description="${why}"`,
      },
    });
  }
  if (record.kind === "session") {
    if (!op.security.session) return insufficientScope(op, culture, logId, origin, pathname, rateHeaders);
    if (
      record.allowedOrigins &&
      record.allowedOrigins.length > 0 &&
      origin !== undefined &&
      !record.allowedOrigins.includes(origin)
    ) {
      throw stageProblem("forbidden", {
        detail: `The session token is not valid for the origin ${origin}.`,
      });
    }
    return record;
  }
  if (
    op.security.scopeSets.length > 0 &&
    !op.security.scopeSets.some((set) => set.every((s) => record.scopes.includes(s)))
  ) {
    return insufficientScope(op, culture, logId, origin, pathname, rateHeaders);
  }
  return record;
}

/** 403 naming the first scope set in the challenge and every accepted set in `requiredScopes`. */
function insufficientScope(
  op: OperationSpec,
  _culture: Culture,
  _logId: string,
  _origin: string | undefined,
  _pathname: string,
  _rateHeaders: Record<string, string>,
): never {
  const needed = op.security.scopeSets[0]?.join(" ") ?? "";
  throw stageProblem("forbidden", {
    headers: {
      "www-authenticate": `${REALM}, error="insufficient_scope", scope="${needed}"`,
    },
    extensions: { requiredScopes: op.security.scopeSets.map((s) => s.join(" ")) },
  });
}

function linkRejectionDetail(rejection: LinkRejection, culture: Culture): string {
  const texts: Record<LinkRejection, LocalizedText> = {
    expired: msg("core.pipeline.authentication.the-link-has-expired-fetch-the"),
    "bad-signature": msg("core.pipeline.authentication.the-link-s-signature-is-not"),
    malformed: msg("core.pipeline.authentication.the-link-lacks-a-valid-expires"),
  };
  return pickText(texts[rejection], culture);
}

/** The English reasons the token checks give → their message keys. */
const AUTH_DETAILS: Record<string, string> = {
  "The Authorization header is not a Bearer token.": "core.pipeline.authentication.not-a-bearer-token",
  "The token has expired.": "core.pipeline.authentication.token-expired",
  "The token is not valid.": "core.pipeline.authentication.token-not-valid",
};

function localizedAuthDetail(why: string, culture: Culture): string {
  const key = AUTH_DETAILS[why];
  return key ? formatMessage(culture, key) : why;
}
