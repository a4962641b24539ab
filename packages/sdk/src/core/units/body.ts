/** Small helpers for response bodies the chain does not hand on. */

/** Drops an unread body (a retried response's), so its connection is freed. */
export function discard(response: Response): void {
  if (!response.bodyUsed) response.body?.cancel().catch(() => {});
}
