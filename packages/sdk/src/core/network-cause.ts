/**
 * What a failed fetch says, with its causes: undici's `TypeError: fetch failed` keeps the reason (and the address)
 * in `cause`, e.g. `fetch failed (connect ECONNREFUSED 127.0.0.1:1)` or `fetch failed (getaddrinfo ENOTFOUND
 * api.example)`; several addresses tried at once give an AggregateError, whose reasons are listed once each.
 */
export function describeFailure(error: unknown): string {
  const head = (error as Error)?.message ?? String(error);
  const reasons: string[] = [];
  let cause = (error as { cause?: unknown })?.cause;
  for (let depth = 0; cause != null && depth < 4; depth++) {
    const inner = cause as { message?: unknown; errors?: unknown; cause?: unknown };
    const messages = Array.isArray(inner.errors)
      ? inner.errors.map((e) => String((e as Error)?.message ?? e))
      : [typeof inner.message === "string" && inner.message ? inner.message : String(cause)];
    for (const m of messages) if (m && m !== head && !reasons.includes(m)) reasons.push(m);
    cause = inner.cause;
  }
  return reasons.length ? `${head} (${reasons.join("; ")})` : head;
}
