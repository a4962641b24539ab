/**
 * Per-session fault rules (WireMock-style): latency, error rate, 429 with Retry-After, 503 and dropped
 * connections, optionally limited to an operation, a method or a path prefix, with a probability and a count.
 */

export type FaultKind = "latency" | "error" | "rate-limit" | "unavailable" | "drop";

export interface FaultRule {
  id: string;
  kind: FaultKind;
  /** Added delay in ms: a number, or [min, max] for a uniform random delay. Applies to every kind. */
  latencyMs?: number | [number, number];
  /** 0–1; default 1. */
  probability?: number;
  /** How many more times the fault may fire; unlimited when absent. */
  times?: number;
  operationId?: string;
  method?: string;
  /** Path prefix, e.g. `/shop/v1/cart`. */
  path?: string;
  /** For `rate-limit` and `unavailable`: the Retry-After value in seconds (default 1). */
  retryAfterSeconds?: number;
}

const KINDS: FaultKind[] = ["latency", "error", "rate-limit", "unavailable", "drop"];

/** Validates a rule from JSON; returns an error message or the rule. */
export function parseFaultRule(value: unknown, id: string): FaultRule | string {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    return "A fault rule is a JSON object.";
  const v = value as Record<string, unknown>;
  const allowed = [
    "kind",
    "latencyMs",
    "probability",
    "times",
    "operationId",
    "method",
    "path",
    "retryAfterSeconds",
  ];
  for (const key of Object.keys(v)) if (!allowed.includes(key)) return `Unknown field "${key}".`;
  if (!KINDS.includes(v.kind as FaultKind)) return `kind must be one of ${KINDS.join(", ")}.`;
  const rule: FaultRule = { id, kind: v.kind as FaultKind };
  if (v.latencyMs !== undefined) {
    const ok =
      (typeof v.latencyMs === "number" && v.latencyMs >= 0 && v.latencyMs <= 60_000) ||
      (Array.isArray(v.latencyMs) &&
        v.latencyMs.length === 2 &&
        v.latencyMs.every((n) => typeof n === "number" && n >= 0 && n <= 60_000) &&
        (v.latencyMs[0] as number) <= (v.latencyMs[1] as number));
    if (!ok) return "latencyMs is a number or [min, max] between 0 and 60000.";
    rule.latencyMs = v.latencyMs as number | [number, number];
  }
  if (v.probability !== undefined) {
    if (typeof v.probability !== "number" || v.probability < 0 || v.probability > 1)
      return "probability is 0–1.";
    rule.probability = v.probability;
  }
  if (v.times !== undefined) {
    if (!Number.isInteger(v.times) || (v.times as number) < 1) return "times is a positive integer.";
    rule.times = v.times as number;
  }
  for (const key of ["operationId", "method", "path"] as const) {
    if (v[key] !== undefined) {
      if (typeof v[key] !== "string" || (v[key] as string).length > 200) return `${key} is a string.`;
      rule[key] = key === "method" ? (v[key] as string).toUpperCase() : (v[key] as string);
    }
  }
  if (v.retryAfterSeconds !== undefined) {
    if (!Number.isInteger(v.retryAfterSeconds) || (v.retryAfterSeconds as number) < 0) {
      return "retryAfterSeconds is a non-negative integer.";
    }
    rule.retryAfterSeconds = v.retryAfterSeconds as number;
  }
  return rule;
}

export interface FaultDecision {
  delayMs: number;
  rule: FaultRule | null;
}

/** Picks the first rule that matches and fires; latency-only rules add up with it. */
export function decideFault(
  rules: FaultRule[],
  request: { operationId: string; method: string; path: string },
  random: () => number,
): FaultDecision {
  let delayMs = 0;
  let fired: FaultRule | null = null;
  for (const rule of rules) {
    if (rule.times !== undefined && rule.times <= 0) continue;
    if (rule.operationId !== undefined && rule.operationId !== request.operationId) continue;
    if (rule.method !== undefined && rule.method !== request.method) continue;
    if (rule.path !== undefined && !request.path.startsWith(rule.path)) continue;
    if (random() >= (rule.probability ?? 1)) continue;
    if (rule.kind !== "latency" && fired) continue;
    if (rule.times !== undefined) rule.times--;
    if (rule.latencyMs !== undefined) {
      delayMs += Array.isArray(rule.latencyMs)
        ? rule.latencyMs[0] + random() * (rule.latencyMs[1] - rule.latencyMs[0])
        : rule.latencyMs;
    }
    if (rule.kind !== "latency") fired = rule;
  }
  return { delayMs, rule: fired };
}
