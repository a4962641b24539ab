/**
 * `Idempotency-Key` of a write: the call's `idempotencyKey` (validated; `null` sends none, so the write is never
 * retried), else the request's own header, else a new UUID v4 — one per call, reused by every retry below.
 */

import { InvalidArgumentError } from "../errors.ts";
import { idempotencyKeyProblem, isWriteMethod, newIdempotencyKey } from "../idempotency-key.ts";
import type { Unit } from "../types.ts";

export function idempotency(): Unit {
  return (next) => (request, call) => {
    const headers = request.headers;
    const given = call.options.idempotencyKey;
    if (given !== undefined) headers.delete("idempotency-key");
    if (isWriteMethod(request.method)) {
      const problem = given == null ? undefined : idempotencyKeyProblem(given);
      if (problem) throw new InvalidArgumentError("idempotencyKey", problem, call.info());
      const key =
        given === null ? undefined : (given ?? headers.get("idempotency-key") ?? newIdempotencyKey());
      if (key) headers.set("idempotency-key", key);
      call.state.idempotencyKey = key;
    }
    return next(request, call);
  };
}
