/** The client-credentials token request (RFC 6749 §4.4) with HTTP Basic client authentication. */

import { UnexpectedResponseError } from "./errors.ts";
import { callContext, errorFromResponse, parseSuccessJson } from "./response.ts";
import { base64Utf8 } from "./runtime.ts";
import type { ClientCredentials, TokenGrant } from "./token-cache.ts";
import type { CallState, Transport } from "./transport.ts";

/** RFC 6749 §2.3.1: id and secret are form-urlencoded before they are joined and base64-encoded. */
export function basicAuthorization(credentials: ClientCredentials): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${base64Utf8(`${encode(credentials.clientId)}:${encode(credentials.clientSecret)}`)}`;
}

/** Builds the function a `TokenCache` calls to obtain a token; it runs through the transport's retries. */
export function createTokenRequester(
  transport: Transport,
  tokenUrl: string,
  scope: string,
): (credentials: ClientCredentials) => Promise<TokenGrant> {
  return async (credentials) => {
    const request = new Request(tokenUrl, {
      method: "POST",
      headers: {
        authorization: basicAuthorization(credentials),
        "content-type": "application/x-www-form-urlencoded",
        accept: "application/json",
      },
      body: new URLSearchParams({ grant_type: "client_credentials", scope }).toString(),
    });
    const state: CallState = { attempts: 0, operationId: "createToken" };
    const response = await transport.send(request, {}, state);
    const info = callContext(state, "POST", tokenUrl, response);
    if (!response.ok) throw errorFromResponse(response.status, response.headers, state.errorBody ?? "", info);
    const text = await response.text();
    const parsed = parseSuccessJson(text, response.headers.get("content-type"));
    const contentType = response.headers.get("content-type") ?? undefined;
    if (!parsed.ok) throw new UnexpectedResponseError(parsed.reason, text, contentType, info);
    const body = parsed.value as {
      access_token?: unknown;
      expires_in?: unknown;
      token_type?: unknown;
      scope?: unknown;
    };
    if (typeof body?.access_token !== "string" || body.access_token === "") {
      throw new UnexpectedResponseError("the token response has no access_token", text, contentType, info);
    }
    if (typeof body.token_type === "string" && body.token_type.toLowerCase() !== "bearer") {
      throw new UnexpectedResponseError(
        `unsupported token_type "${body.token_type}"`,
        text,
        contentType,
        info,
      );
    }
    const expiresIn = typeof body.expires_in === "number" && body.expires_in > 0 ? body.expires_in : 3600;
    return {
      accessToken: body.access_token,
      expiresIn,
      scope: typeof body.scope === "string" ? body.scope : undefined,
    };
  };
}
