/**
 * The client-credentials token request (RFC 6749 §4.4) with HTTP Basic client authentication: the contract's
 * `createToken` operation, run like any section method (one transport, one error model).
 */

import { invoke } from "./operation.ts";
import { base64Utf8 } from "./runtime.ts";
import type { ClientCredentials, TokenGrant } from "./token-cache.ts";
import type { TokenTransport } from "./transport.ts";

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded. */
export function basicAuthorization(credentials: ClientCredentials): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${base64Utf8(`${encode(credentials.clientId)}:${encode(credentials.clientSecret)}`)}`;
}

/**
 * The token request's body, form-urlencoded, with HTTP Basic client authentication when the client has credentials
 * (`OperationContext.form`).
 */
export function formBody(credentials: () => ClientCredentials | undefined) {
  return (body: unknown, headers: Headers): string => {
    headers.set("content-type", "application/x-www-form-urlencoded");
    const given = credentials();
    if (given) headers.set("authorization", basicAuthorization(given));
    return `${new URLSearchParams(body as Record<string, string>)}`;
  };
}

interface TokenBody {
  access_token?: unknown;
  expires_in?: unknown;
  token_type?: unknown;
  scope?: unknown;
}

/** Why a 2xx token response cannot be used, if it cannot. */
function tokenProblem(data: unknown): string | undefined {
  const body = data as TokenBody | undefined;
  if (typeof body?.access_token !== "string" || !body.access_token)
    return "the token response has no access_token";
  const type = body.token_type;
  if (typeof type === "string" && type.toLowerCase() !== "bearer") return `unsupported token_type "${type}"`;
}

/** Builds the function a `TokenCache` calls to obtain a token; it runs through the transport's retries. */
export function createTokenRequester(
  transport: TokenTransport,
  tokenUrl: string,
  scope: string,
): (credentials: ClientCredentials) => Promise<TokenGrant> {
  const spec = {
    operationId: "createToken",
    method: "POST",
    path: tokenUrl,
    form: true,
    check: tokenProblem,
  } as const;
  return async (credentials) => {
    const { data, error } = await invoke(
      { transport, baseUrl: "", form: formBody(() => credentials) },
      spec,
      { body: { grant_type: "client_credentials", scope } },
    );
    if (error) throw error;
    const body = data as TokenBody & { access_token: string };
    const expiresIn = body.expires_in;
    return {
      accessToken: body.access_token,
      expiresIn: typeof expiresIn === "number" && expiresIn > 0 ? expiresIn : 3600,
      scope: typeof body.scope === "string" ? body.scope : undefined,
    };
  };
}
