/** Runs one unit of the transport over a fake `send`, as the chain would. */
import { newCall } from "../../../src/core/call.ts";
import type { Call, CallOptions, CallState, Send, Unit } from "../../../src/core/types.ts";

export const URL_ = "https://api.test.entrada.dev/shop/v1/cart";

export function run(
  unit: Unit,
  send: Send,
  {
    request = new Request(URL_),
    options = {},
    totalMs,
    state = { attempts: 0 },
  }: {
    request?: Request;
    options?: CallOptions;
    totalMs?: number;
    state?: CallState;
  } = {},
): { result: Promise<Response>; call: Call; state: CallState } {
  const call = newCall(request, options, state, totalMs);
  // (As `transport.send` does: a unit that refuses a call throws before it returns a promise.)
  return { result: (async () => unit(send)(request, call))(), call, state };
}

/** A `send` that records each request it gets and answers from `answer`. */
export function recorder(
  answer: (request: Request, index: number) => Response | Promise<Response> = () => new Response("ok"),
) {
  const requests: Request[] = [];
  const send: Send = async (request) => {
    requests.push(request);
    return answer(request, requests.length - 1);
  };
  return { send, requests };
}
