/**
 * The attempt's bearer token in `Authorization`, when the `credentials` unit gave the call a provider: the token at
 * hand, else the one the provider is waiting for (once per attempt).
 */

import { isEntradaError, OAuthError } from "../errors.ts";
import type { Call, Unit } from "../types.ts";

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
