/**
 * Whether a call carries a bearer token — not when the request brings its own `Authorization` (the token request's
 * HTTP Basic), and never to another origin — and, after a `401 invalid_token` for the token the call carried, one
 * repeat of the call without that token. Once per call; the `bearer` unit puts the token in each attempt.
 */

import type { AuthProvider, Unit } from "../types.ts";
import { discard } from "./body.ts";

export function credentials(auth: AuthProvider, origin: string): Unit {
  return (next) => (request, call) => {
    if (request.headers.has("authorization") || !request.url.startsWith(origin)) return next(request, call);
    call.auth = auth;
    return next(request, call).then((response) => {
      const token = call.state.token;
      if (
        response.status !== 401 ||
        !token ||
        // A challenge that names another error (`insufficient_scope`) is not cured by a new token.
        !/invalid_token/i.test(response.headers.get("www-authenticate") ?? "invalid_token") ||
        !auth.invalidate(token)
      )
        return response;
      discard(response);
      // (A body is sent again from the copy `retry` keeps for the call.)
      return next(request, call);
    });
  };
}
