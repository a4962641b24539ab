/**
 * The end of the chain: the `fetch`, given the attempt's signal (set by the `timeout` unit). Called unbound (a
 * browser's native fetch throws "Illegal invocation" as a method of another object); without one of its own the
 * client looks the global up per call, so test tools that patch it (msw) are honoured.
 */

import type { FetchLike, Send } from "../types.ts";

export function send(fetch: FetchLike | undefined): Send {
  return (request, call) => (fetch ?? globalThis.fetch)(request, { signal: call.signal });
}
