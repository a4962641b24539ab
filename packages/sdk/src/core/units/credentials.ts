/**
 * Credentials, in two units. `credentials` (once per call) decides whether the call carries a bearer token — not
 * when the request brings its own `Authorization` (the token request's HTTP Basic), and never to another origin —
 * and after a `401 invalid_token` for the token the call carried, drops that token and sends the call once more.
 * `bearer` (once per attempt) puts a usable token in `Authorization`, waiting for one if needed.
 */

import type { AuthProvider, Call, Unit } from "../call.ts";
import { isEntradaError, OAuthError } from "../errors.ts";
import { discard } from "./body.ts";

export function credentials(auth: () => AuthProvider | undefined, origin: string): Unit {
  return (next) => (request, call) => {
    const provider =
      !request.headers.has("authorization") && request.url.startsWith(origin) ? auth() : undefined;
    call.auth = provider;
    if (!provider) return next(request, call);
    return next(request, call).then((response) => {
      const token = call.state.token;
      if (
        response.status !== 401 ||
        !token ||
        // A challenge that names another error (`insufficient_scope`) is not cured by a new token.
        !/invalid_token/i.test(response.headers.get("www-authenticate") ?? "invalid_token") ||
        !provider.invalidate(token)
      )
        return response;
      discard(response);
      // (A body is sent again from the copy `retry` keeps for the call.)
      return next(request, call);
    });
  };
}

export function bearer(): Unit {
  return (next) => (request, call) => {
    const auth = call.auth;
    const token = auth?.peek();
    // Without credentials, or with a token at hand, the attempt goes straight on (no extra promise).
    if (!auth || token !== undefined) return next(authorize(request, call, token), call);
    return auth.get().then(
      (token) => {
        // The attempt may have ended while it waited (timeout, the caller's abort): then it sends nothing.
        call.signal?.throwIfAborted();
        return next(authorize(request, call, token), call);
      },
      (error: unknown) => {
        // A token function that throws (your backend refused a session) is an auth failure, not a network one:
        // final, with its error as the cause.
        throw isEntradaError(error)
          ? error
          : new OAuthError(
              { error: "token_unavailable", error_description: (error as Error)?.message ?? String(error) },
              call.info(undefined, error),
            );
      },
    );
  };
}

/** `request` carrying `token` (none: as it is), which the call remembers for `credentials`. */
function authorize(request: Request, call: Call, token: string | undefined): Request {
  if (token !== undefined) {
    call.state.token = token;
    request.headers.set("authorization", `Bearer ${token}`);
  }
  return request;
}
