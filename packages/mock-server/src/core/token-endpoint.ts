/** The OAuth 2.0 token endpoint (RFC 6749 §3.2): answers in OAuth's JSON error format, not problem+json. */

import { cors } from "./cors.ts";
import { grantToken, OAuthError } from "./oauth.ts";
import type { MockSession } from "./session.ts";
import type { MockRequest, MockResponse } from "./types.ts";

const utf8 = new TextDecoder("utf-8", { fatal: true });
/** Largest token request body. */
const MAX_TOKEN_BODY = 64 * 1024;
/** Beyond this many tokens in a session, expired ones are swept on the next grant. */
const SWEEP_ABOVE = 50_000;

/** Grants a token for a client-credentials request, or answers the OAuth error. */
export function tokenResponse(
  session: MockSession,
  request: MockRequest,
  logId: string,
  origin: string | undefined,
  rateHeaders: Record<string, string>,
  now: number,
  ttlSeconds: number,
): MockResponse {
  const base = { "x-log-id": logId, "cache-control": "no-store", pragma: "no-cache", ...rateHeaders };
  let text: string;
  try {
    if (request.body && request.body.length > MAX_TOKEN_BODY)
      throw new OAuthError("invalid_request", "The body is too large.");
    text = request.body ? utf8.decode(request.body) : "";
    const grant = grantToken({
      authorization: request.headers.authorization,
      contentType: request.headers["content-type"],
      body: text,
      clients: session.clients,
      now,
      ttlSeconds,
    });
    session.addToken(grant.token, grant.record);
    if (session.tokens.size > SWEEP_ABOVE) sweepTokens(session, now);
    return cors(
      {
        status: 200,
        headers: { ...base, "content-type": "application/json" },
        body: JSON.stringify({
          access_token: grant.token,
          token_type: "Bearer",
          expires_in: grant.expiresIn,
          scope: grant.scope,
        }),
      },
      origin,
    );
  } catch (error) {
    const e =
      error instanceof OAuthError
        ? error
        : new OAuthError(
            "invalid_request",
            error instanceof TypeError ? "The body is not valid UTF-8." : "The request is malformed.",
          );
    return oauthErrorResponse(e, base, origin);
  }
}

/** An OAuth 2.0 error response (RFC 6749 §5.2): `{error, error_description}` as application/json. */
export function oauthErrorResponse(
  e: OAuthError,
  headers: Record<string, string>,
  origin: string | undefined,
): MockResponse {
  const all: Record<string, string> = {
    "cache-control": "no-store",
    pragma: "no-cache",
    ...headers,
    "content-type": "application/json",
  };
  if (e.status === 401) all["www-authenticate"] = 'Basic realm="entrada", charset="UTF-8"';
  return cors(
    {
      status: e.status,
      headers: all,
      body: JSON.stringify({ error: e.error, error_description: e.description }),
    },
    origin,
  );
}

function sweepTokens(session: MockSession, now: number): void {
  for (const [token, record] of session.tokens) if (record.expiresAt <= now) session.tokens.delete(token);
}

/** The OAuth token endpoint's path below the base path. */
export const TOKEN_PATH = "/connect/token";

/**
 * The token endpoint answers every 400 in OAuth's JSON (RFC 6749 §5.2), never problem+json — also those the
 * request-wide stages raise before routing (a malformed Accept-Language or X-Mock-Session, a duplicated header):
 * `invalid_request` with the problem's detail and its first pointer.
 */
export function asOAuthError(response: MockResponse, origin: string | undefined): MockResponse {
  const problem = JSON.parse(String(response.body)) as {
    detail?: string;
    errors?: { pointer: string; detail: string }[];
  };
  const first = problem.errors?.[0];
  const description = first
    ? `${first.pointer}: ${first.detail}`
    : (problem.detail ?? "The request is malformed.");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers))
    if (name === "x-log-id" || name.startsWith("ratelimit-")) headers[name] = value;
  return oauthErrorResponse(new OAuthError("invalid_request", description), headers, origin);
}
