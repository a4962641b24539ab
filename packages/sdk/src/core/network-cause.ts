/**
 * What a failed fetch says, with its causes: undici's `TypeError: fetch failed` keeps the reason (and the address)
 * in `cause`, e.g. `fetch failed (connect ECONNREFUSED 127.0.0.1:1)` or `fetch failed (getaddrinfo ENOTFOUND
 * api.example)`; several addresses tried at once give an AggregateError, whose reasons are listed once each.
 */
export function describeFailure(error: unknown): string {
  const head = (error as Error)?.message ?? String(error);
  // Each reason once, in the order met (a `Set` keeps it); the head itself is no reason.
  const reasons = new Set<string>();
  let cause = (error as Error)?.cause;
  for (let depth = 0; cause != null && depth < 4; depth++) {
    const inner = cause as { message?: unknown; errors?: unknown; cause?: unknown };
    for (const reason of Array.isArray(inner.errors) ? inner.errors : [cause])
      reasons.add(String((reason as Error)?.message || reason));
    cause = inner.cause;
  }
  reasons.delete(head);
  return reasons.size ? `${head} (${[...reasons].join("; ")})` : head;
}
