/**
 * Idempotency keys (draft-ietf-httpapi-idempotency-key-header): one UUID v4 per logical call, generated
 * before the first attempt and reused by every retry of that call, never by another call.
 */

/** True for the methods the API treats as writes (they accept `Idempotency-Key`). */
export function isWriteMethod(method: string): boolean {
  return /^(POST|PUT|PATCH|DELETE)$/i.test(method);
}

/**
 * A fresh random key: a UUID v4 from Web Crypto. `randomUUID` exists only in secure contexts, so pages served over
 * plain http (a LAN dev server) get the same format from `getRandomValues`.
 */
export function newIdempotencyKey(): string {
  // Where randomUUID is missing (a browser page over plain http): each `0`/`1` of the template becomes a random hex
  // digit, the `8` a variant digit (8–b), the `4` stays (version 4).
  return (
    crypto.randomUUID?.() ??
    "10000000-1000-4000-8000-100000000000".replace(/[018]/g, (c) =>
      (+c ^ ((crypto.getRandomValues(new Uint8Array(1))[0] as number) & (15 >> (+c / 4)))).toString(16),
    )
  );
}

/**
 * Validates a caller-supplied key: 1–255 visible ASCII characters without `"` and `\` (the contract's length
 * limit; keys are sent bare, as the contract allows: the quote and backslash excluded, they travel unchanged).
 * Returns an explanation when invalid.
 */
export function idempotencyKeyProblem(key: unknown): string | undefined {
  const problem =
    typeof key !== "string" || !key
      ? "must be a non-empty string"
      : key.length > 255
        ? `is ${key.length} characters long; at most 255 are allowed`
        : /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(key)
          ? undefined
          : "may hold visible ASCII characters only (no spaces, quotes or backslashes)";
  return problem && `Idempotency key ${problem}`;
}
