/**
 * The client-wide `headers` (the weakest of a call: the request's own and the language beat them) and the SDK's
 * `User-Agent` (outside browsers).
 */

import type { Unit } from "../types.ts";

export function clientHeaders(headers: Headers | undefined, userAgent: string | undefined): Unit {
  return (next) => (request, call) => {
    const own = request.headers;
    if (headers) for (const [name, value] of headers) if (!own.has(name)) own.set(name, value);
    if (userAgent) own.set("user-agent", userAgent);
    return next(request, call);
  };
}
