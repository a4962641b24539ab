/**
 * Who is calling: a signed asset link, a bearer token (client or shop session, RFC 6750) with the operation's
 * scopes, or nobody on a public operation; RFC 6750 challenges in WWW-Authenticate, localized details. Tokens are
 * opaque and live in the mock session, so resetting a session's data keeps them valid.
 */

import type { OperationSpec } from "../document.ts";
import type { LinkRejection, LinkSigner } from "../links.ts";
import { formatMessage, msg, pickText } from "../messages.ts";
import type { TokenRecord } from "../oauth.ts";
import { stageProblem } from "../problems.ts";
import type { MockSession } from "../session.ts";
import { rawPath, withinMount } from "../target.ts";
import type { AuthInfo, Culture, LocalizedText } from "../types.ts";
import type { Exchange, Stage } from "./exchange.ts";

/** What authentication needs: the signer of asset links and the base path they are signed below. */
export interface AuthenticationServices {
  links: LinkSigner;
  mountPath: string;
}

/** The authentication stage: fills in `auth`, or throws the 401/403. */
export function authentication({ links, mountPath }: AuthenticationServices): Stage {
  return (ex: Exchange) => {
    if (ex.route?.oauth) return;
    ex.auth = authenticateRequest(ex, links, mountPath);
  };
}

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)[ ]*$/i;

/** The last Authorization header read and its token: a client sends the same one request after request. */
let lastHeader: string | undefined;
let lastToken: string | null = null;

/**
 * The token of a `Bearer` Authorization header, or null. The last header's token is kept: the same header again (a
 * new string each request, compared by content) gives the same token string, whose hash the token table computed
 * already, instead of a match and a new string to hash.
 */
export function parseBearer(header: string): string | null {
  if (header !== lastHeader) {
    lastToken = BEARER.exec(header)?.[1] ?? null;
    lastHeader = header;
  }
  return lastToken;
}

const REALM = 'Bearer realm="entrada"';

/** The caller (null: anonymous on a public operation or through a valid signed link); throws the 401/403. */
function authenticateRequest(ex: Exchange, links: LinkSigner, mountPath: string): AuthInfo | null {
  const { op, headers, now, culture, origin } = ex;
  const signatureParam = op.security.signedUrl;
  // (The URL is made only for a query that may hold a signature.)
  const url = signatureParam !== null && ex.target.search !== "" ? ex.url : null;
  if (!op.security.public && signatureParam !== null && url?.searchParams.has(signatureParam)) {
    // A signed link authorizes this one asset (the signature covers the path as sent) until it expires. A signature
    // that is sent is always verified, also next to a bearer token (a bad one never rides on the token).
    const linkPath = withinMount(mountPath, rawPath(ex.request.url)) ?? "/";
    const rejection = links.verify(
      linkPath,
      url.searchParams.get("expires") ?? undefined,
      url.searchParams.get(signatureParam) ?? undefined,
      now,
      ex.mockSession.id,
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
    return authenticateBearer(op, ex.mockSession, headers, now, culture, origin);
  }
  if (
    !op.security.public ||
    // Public with token alternatives (`{}` next to them: images, icons): anonymous is fine, but a token that is
    // sent is checked like anywhere else (RFC 6750 §3.1: an invalid token is a 401, never silently ignored).
    (headers.authorization !== undefined && (op.security.session || op.security.scopeSets.length > 0))
  ) {
    return authenticateBearer(op, ex.mockSession, headers, now, culture, origin);
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
  origin: string | undefined,
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
    if (!op.security.session) return insufficientScope(op);
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
    return insufficientScope(op);
  }
  return record;
}

/** 403 naming the first scope set in the challenge and every accepted set in `requiredScopes`. */
function insufficientScope(op: OperationSpec): never {
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
