/** The fault-injection stage: developer-controlled latency, errors, 429/503 and dropped connections. */
import { decideFault } from "./faults.ts";
import type { OperationRequest } from "./operation-request.ts";
import { problemResponse } from "./problem-response.ts";
import type { MockResponse } from "./types.ts";

/**
 * Applies the session's fault rules before execution (nothing is stored, nothing changes): waits the decided
 * delay, then answers the injected fault, or null to go on. Call only when the session has rules.
 */
export async function injectFault(rq: OperationRequest): Promise<MockResponse | null> {
  const { session, culture, logId, origin, pathname, rateHeaders } = rq;
  const decision = decideFault(
    session.faults,
    { operationId: rq.op.operationId, method: rq.method, path: pathname },
    session.random,
  );
  if (decision.delayMs > 0) await sleep(decision.delayMs);
  const rule = decision.rule;
  if (!rule) return null;
  if (rule.kind === "drop") return { status: 0, headers: {}, body: null, drop: true };
  const retryAfter = String(rule.retryAfterSeconds ?? 1);
  if (rule.kind === "rate-limit") {
    return problemResponse("rate-limited", culture, logId, origin, {
      instance: pathname,
      headers: { ...rateHeaders, "retry-after": retryAfter, "ratelimit-remaining": "0" },
      extensions: { injected: true },
    });
  }
  if (rule.kind === "unavailable") {
    return problemResponse("service-unavailable", culture, logId, origin, {
      instance: pathname,
      headers: { ...rateHeaders, "retry-after": retryAfter },
      extensions: { injected: true },
    });
  }
  return problemResponse("internal-error", culture, logId, origin, {
    instance: pathname,
    headers: rateHeaders,
    detail: "Injected fault (developer controls).",
    extensions: { injected: true },
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
