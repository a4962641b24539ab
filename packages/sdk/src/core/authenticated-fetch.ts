/** A client's `fetch` through its transport (`client.fetch`, `shop.fetch`, and so `@entrada/sdk/raw`). */

import type { CallOptions, Transport } from "./transport.ts";

/** Per-call options of `client.fetch`. */
export type EntradaFetchInit = Omit<RequestInit, "headers"> &
  Omit<CallOptions, "signal" | "headers"> & { headers?: RequestInit["headers"] };

/**
 * The client's authenticated `fetch`: a path is taken relative to the base URL, an absolute URL as is (the token
 * only ever goes to the API's origin). Rejects with an `EntradaError`; HTTP errors resolve.
 */
export function authenticatedFetch(
  transport: Transport,
  baseUrl: string,
): (input: string | URL | Request, init?: EntradaFetchInit) => Promise<Response> {
  return (input, init = {}) => {
    const url =
      typeof input === "string" && !/^[a-z][a-z0-9+.-]*:/i.test(input)
        ? `${baseUrl}${input.startsWith("/") ? "" : "/"}${input}`
        : input;
    // `Request` ignores the call options in `init`; the transport reads only those (headers are the request's).
    const request = new Request(url, init as RequestInit);
    return transport.send(request, { ...(init as CallOptions), signal: request.signal }, { attempts: 0 });
  };
}
