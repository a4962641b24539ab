/**
 * Making a call and the chain it travels: `newCall` starts one (its deadline counted from now), `chain` composes
 * the units of `transport.ts` around the final `send`. The vocabulary (`Call`, `Send`, `Unit`) is in `types.ts`.
 */

import { callContext } from "./response.ts";
import type { Call, CallOptions, CallState, Send, Unit } from "./types.ts";

/** A new call of `request`, its deadline counted from now (its own `totalTimeoutMs`, else the client's). */
export function newCall(
  request: Request,
  options: CallOptions,
  state: CallState,
  clientTotalMs?: number,
): Call {
  const totalMs = options.totalTimeoutMs ?? clientTotalMs;
  return {
    options,
    state,
    totalTimeoutMs: totalMs,
    deadline: totalMs === undefined ? Infinity : Date.now() + totalMs,
    info: (response, cause) => callContext(state, request.method, request.url, response, cause),
  };
}

/** `units` around `send`, the first one outermost: `chain([a, b], send)` is `a(b(send))`. */
export function chain(units: readonly Unit[], send: Send): Send {
  return units.reduceRight((next, unit) => unit(next), send);
}
