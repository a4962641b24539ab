/**
 * Per-session fault injection (WireMock-style): latency, error rate, 429 with Retry-After, 503 and dropped
 * connections, optionally limited to an operation, a method or a path prefix, with a probability and a count.
 */

import { decideFault } from "../faults.ts";
import { stageProblem } from "../problems.ts";
import { Answered, type Exchange, type Stage } from "./exchange.ts";

/**
 * The fault-injection stage: the session's developer-set rules (nothing is stored, nothing changes) wait the
 * decided delay, then answer the injected fault (a problem, or a dropped connection), or let the request go on.
 */
export function injectFault(): Stage {
  return (ex) => (ex.mockSession.faults.length === 0 ? undefined : applyFaults(ex));
}

async function applyFaults(ex: Exchange): Promise<void> {
  const session = ex.mockSession;
  const decision = decideFault(
    session.faults,
    { operationId: ex.op.operationId, method: ex.method, path: ex.pathname ?? "/" },
    session.random,
  );
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  const rule = decision.rule;
  if (!rule) return;
  if (rule.kind === "drop") throw new Answered({ status: 0, headers: {}, body: null, drop: true });
  const retryAfter = String(rule.retryAfterSeconds ?? 1);
  if (rule.kind === "rate-limit") {
    throw stageProblem("rate-limited", {
      headers: { "retry-after": retryAfter, "ratelimit-remaining": "0" },
      extensions: { injected: true },
    });
  }
  if (rule.kind === "unavailable") {
    throw stageProblem("service-unavailable", {
      headers: { "retry-after": retryAfter },
      extensions: { injected: true },
    });
  }
  throw stageProblem("internal-error", {
    detail: "Injected fault (developer controls).",
    extensions: { injected: true },
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
